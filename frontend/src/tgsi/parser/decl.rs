//! Declarations, immediates and properties.
//!
//! Declaration attributes are read as a comma-separated list in any order and checked against
//! the register file, which accepts everything Mesa's parser accepts and also the older forms
//! in Mesa's `graw` tests (vertex inputs with a semantic).

use super::cursor::Cursor;
use super::number;
use super::write_mask;
use crate::tgsi::ast::{
    Decl, ImmType, Immediate, InterpLocation, InterpMode, MemoryType, Property, PropertyValue,
    Range, RegFile, ReturnType, Semantic, SemanticDecl, TextureTarget,
};
use crate::tgsi::error::{Pos, Result, TgsiError};
use crate::tgsi::lexer::TokKind;

/// Property names Mesa knows (`tgsi_property_names`).
const PROPERTIES: &[&str] = &[
    "GS_INPUT_PRIMITIVE",
    "GS_OUTPUT_PRIMITIVE",
    "GS_MAX_OUTPUT_VERTICES",
    "FS_COORD_ORIGIN",
    "FS_COORD_PIXEL_CENTER",
    "FS_COLOR0_WRITES_ALL_CBUFS",
    "FS_DEPTH_LAYOUT",
    "VS_PROHIBIT_UCPS",
    "GS_INVOCATIONS",
    "VS_WINDOW_SPACE_POSITION",
    "TCS_VERTICES_OUT",
    "TES_PRIM_MODE",
    "TES_SPACING",
    "TES_VERTEX_ORDER_CW",
    "TES_POINT_MODE",
    "NUM_CLIPDIST_ENABLED",
    "NUM_CULLDIST_ENABLED",
    "FS_EARLY_DEPTH_STENCIL",
    "FS_POST_DEPTH_COVERAGE",
    "NEXT_SHADER",
    "CS_FIXED_BLOCK_WIDTH",
    "CS_FIXED_BLOCK_HEIGHT",
    "CS_FIXED_BLOCK_DEPTH",
    "LEGACY_MATH_RULES",
    "VS_BLIT_SGPRS_AMD",
    "CS_USER_DATA_COMPONENTS_AMD",
    "LAYER_VIEWPORT_RELATIVE",
    "FS_BLEND_EQUATION_ADVANCED",
    "SEPARABLE_PROGRAM",
];

/// `[first..last]`, `[index]`, or `[]` (the implied vertex dimension of geometry inputs).
fn dcl_bracket(c: &mut Cursor<'_, '_>) -> Result<Option<Range>> {
    c.expect(TokKind::LBracket)?;
    if c.eat(TokKind::RBracket) {
        return Ok(None);
    }
    let first = c.uint("register index")?;
    let mut last = first;
    if c.eat(TokKind::DotDot) {
        let pos = c.pos();
        last = c.uint("register index")?;
        if last < first {
            return Err(TgsiError::invalid(
                pos,
                format!("empty register range {first}..{last}"),
            ));
        }
    }
    c.expect(TokKind::RBracket)?;
    Ok(Some(Range { first, last }))
}

pub(super) fn declaration(c: &mut Cursor<'_, '_>, pos: Pos) -> Result<Decl> {
    let (fname, fpos) = c.word("a register file")?;
    let file = RegFile::parse(&fname).ok_or(TgsiError::UnknownFile {
        pos: fpos,
        name: fname,
    })?;
    let bracket_pos = c.pos();
    let first = dcl_bracket(c)?;
    let (dimension, range) = if c.peek_kind() == Some(TokKind::LBracket) {
        let second_pos = c.pos();
        let second = dcl_bracket(c)?;
        let range = second.ok_or_else(|| {
            TgsiError::invalid(second_pos, "the register range must not be empty")
        })?;
        (Some(first), range)
    } else {
        let range = first.ok_or_else(|| {
            TgsiError::invalid(bracket_pos, "the register range must not be empty")
        })?;
        (None, range)
    };
    let usage_mask = if c.eat(TokKind::Dot) {
        write_mask(c)?
    } else {
        0xf
    };
    let mut d = Decl {
        pos,
        file,
        range,
        dimension,
        usage_mask,
        array_id: None,
        local: false,
        semantic: None,
        interp: None,
        interp_location: None,
        invariant: false,
        texture: None,
        return_types: None,
        memory: None,
        atomic: false,
        image_raw: false,
        image_writable: false,
        image_format: None,
        streams: None,
    };
    let mut return_types = Vec::new();
    while c.eat(TokKind::Comma) {
        attribute(c, &mut d, &mut return_types)?;
    }
    match return_types.len() {
        0 => {}
        1 => d.return_types = Some([return_types[0]; 4]),
        4 => {
            d.return_types = Some([
                return_types[0],
                return_types[1],
                return_types[2],
                return_types[3],
            ])
        }
        n => {
            return Err(TgsiError::invalid(
                pos,
                format!("a sampler view has 1 or 4 return types, not {n}"),
            ))
        }
    }
    if file == RegFile::SamplerView && d.texture.is_none() {
        return Err(TgsiError::invalid(
            pos,
            "a sampler view declaration needs a texture target",
        ));
    }
    Ok(d)
}

fn parenthesised_uints<const N: usize>(
    c: &mut Cursor<'_, '_>,
    what: &'static str,
) -> Result<[u32; N]> {
    c.expect(TokKind::LParen)?;
    let mut out = [0; N];
    for (i, slot) in out.iter_mut().enumerate() {
        if i > 0 {
            c.expect(TokKind::Comma)?;
        }
        *slot = c.uint(what)?;
    }
    c.expect(TokKind::RParen)?;
    Ok(out)
}

fn attribute(
    c: &mut Cursor<'_, '_>,
    d: &mut Decl,
    return_types: &mut Vec<ReturnType>,
) -> Result<()> {
    let (word, pos) = c.word("a declaration attribute")?;
    let file = d.file;
    let io = matches!(
        file,
        RegFile::Input | RegFile::Output | RegFile::SystemValue
    );
    let textures = matches!(file, RegFile::SamplerView | RegFile::Image);
    match word.as_str() {
        "ARRAY" => d.array_id = Some(parenthesised_uints::<1>(c, "array id")?[0]),
        "LOCAL" => d.local = true,
        "INVARIANT" => d.invariant = true,
        "ATOMIC" if file == RegFile::Buffer => d.atomic = true,
        "RAW" if file == RegFile::Image => d.image_raw = true,
        "WR" if file == RegFile::Image => d.image_writable = true,
        "STREAM" if file == RegFile::Output => {
            d.streams = Some(parenthesised_uints::<4>(c, "stream")?)
        }
        _ => {
            if file == RegFile::Memory && d.memory.is_none() {
                if let Some(m) = MemoryType::from_name(&word) {
                    d.memory = Some(m);
                    return Ok(());
                }
            }
            if textures && d.texture.is_none() {
                if let Some(t) = TextureTarget::parse(&word) {
                    d.texture = Some(t);
                    return Ok(());
                }
            }
            if file == RegFile::SamplerView && d.texture.is_some() {
                if let Some(t) = ReturnType::from_name(&word) {
                    return_types.push(t);
                    return Ok(());
                }
            }
            if io && d.semantic.is_none() {
                if let Some(name) = Semantic::from_name(&word) {
                    let mut index = 0;
                    if c.eat(TokKind::LBracket) {
                        index = c.uint("semantic index")?;
                        c.expect(TokKind::RBracket)?;
                    }
                    d.semantic = Some(SemanticDecl { name, index, pos });
                    return Ok(());
                }
            }
            if io && d.interp.is_none() {
                if let Some(m) = InterpMode::from_name(&word) {
                    d.interp = Some(m);
                    return Ok(());
                }
            }
            if io && d.interp_location.is_none() {
                if let Some(l) = InterpLocation::from_name(&word) {
                    d.interp_location = Some(l);
                    return Ok(());
                }
            }
            if file == RegFile::Image && d.texture.is_some() && d.image_format.is_none() {
                d.image_format = Some(word);
                return Ok(());
            }
            return Err(TgsiError::UnknownName {
                pos,
                what: "declaration attribute",
                name: word,
            });
        }
    }
    Ok(())
}

pub(super) fn immediate(c: &mut Cursor<'_, '_>, pos: Pos, count: usize) -> Result<Immediate> {
    if c.peek_kind() == Some(TokKind::LBracket) {
        c.bump();
        let npos = c.pos();
        let n = c.uint("immediate index")?;
        if n as usize != count {
            return Err(TgsiError::invalid(
                npos,
                format!(
                    "immediates must be numbered in order: expected IMM[{count}], found IMM[{n}]"
                ),
            ));
        }
        c.expect(TokKind::RBracket)?;
    }
    let (tname, tpos) = c.word("an immediate type")?;
    let ty = ImmType::from_name(&tname).ok_or(TgsiError::UnknownName {
        pos: tpos,
        what: "immediate type",
        name: tname,
    })?;
    c.expect(TokKind::LBrace)?;
    let mut slots = [0u32; 4];
    let values = if ty.is_64bit() { 2 } else { 4 };
    for i in 0..values {
        if i > 0 {
            c.expect(TokKind::Comma)?;
        }
        let bits = literal(c, ty)?;
        if ty.is_64bit() {
            slots[2 * i] = bits as u32;
            slots[2 * i + 1] = (bits >> 32) as u32;
        } else {
            slots[i] = bits as u32;
        }
    }
    c.expect(TokKind::RBrace)?;
    Ok(Immediate { pos, ty, slots })
}

/// One immediate value of type `ty`, as raw bits (32 or 64 of them).
fn literal(c: &mut Cursor<'_, '_>, ty: ImmType) -> Result<u64> {
    let pos = c.pos();
    let negative = if c.eat(TokKind::Minus) {
        true
    } else {
        c.eat(TokKind::Plus);
        false
    };
    let tok = match c.peek() {
        Some(t) if t.kind == TokKind::Number => t,
        Some(t) if t.kind == TokKind::Word && ty.is_float() => t,
        _ => return Err(c.expected(format!("a {} value", ty.name()))),
    };
    c.bump();
    let text = tok.text;
    let bad = |what: &'static str| TgsiError::InvalidNumber {
        pos,
        what,
        text: format!("{}{text}", if negative { "-" } else { "" }),
    };
    match ty {
        ImmType::Flt32 => {
            let bits = number::f32_bits(text).ok_or_else(|| bad("FLT32 immediate"))?;
            Ok((bits ^ if negative { 0x8000_0000 } else { 0 }) as u64)
        }
        ImmType::Flt64 => {
            let bits = number::f64_bits(text).ok_or_else(|| bad("FLT64 immediate"))?;
            Ok(bits ^ if negative { 1 << 63 } else { 0 })
        }
        ImmType::Uint32 => {
            let v = number::integer(text).filter(|&v| v <= u32::MAX as u64 && !negative);
            v.ok_or_else(|| bad("UINT32 immediate"))
        }
        ImmType::Int32 => {
            // Like Mesa's parse_int: the magnitude is read unsigned and negated, so anything
            // that fits 32 bits either way is accepted and wraps.
            let v = number::integer(text).filter(|&v| v <= u32::MAX as u64);
            let v = v.ok_or_else(|| bad("INT32 immediate"))?;
            Ok((if negative {
                (v as u32).wrapping_neg()
            } else {
                v as u32
            }) as u64)
        }
        ImmType::Uint64 => {
            let v = number::integer(text).filter(|_| !negative);
            v.ok_or_else(|| bad("UINT64 immediate"))
        }
        ImmType::Int64 => {
            let v = number::integer(text).ok_or_else(|| bad("INT64 immediate"))?;
            Ok(if negative { v.wrapping_neg() } else { v })
        }
    }
}

pub(super) fn property(c: &mut Cursor<'_, '_>, pos: Pos) -> Result<Property> {
    let (name, name_pos) = c.word("a property name")?;
    if !PROPERTIES.contains(&name.as_str()) {
        return Err(TgsiError::UnknownName {
            pos: name_pos,
            what: "property",
            name,
        });
    }
    let value = match c.peek_kind() {
        Some(TokKind::Number) => PropertyValue::Uint(c.uint("property value")?),
        Some(TokKind::Word) => PropertyValue::Name(c.word("a property value")?.0),
        _ => return Err(c.expected("a property value")),
    };
    Ok(Property {
        pos,
        name,
        name_pos,
        value,
    })
}
