//! The TGSI text parser: lines of tokens to a [`Program`].
//!
//! Grammar (after Mesa's `tgsi_text.c`; upper and lower case are the same):
//!
//! ```text
//! program     ::= header statement*
//! header      ::= (FRAG | VERT | GEOM | COMP | TESS_CTRL | TESS_EVAL) [version]
//! statement   ::= DCL declaration | IMM immediate | PROPERTY name value
//!               | [uint ':'] instruction
//! instruction ::= mnemonic[_SAT][_PRECISE] operands [',' target (',' offset)*]
//!                 (',' memory-attribute)* [':' label]
//! dst         ::= register ['.' writemask]
//! src         ::= ['-'] ['|'] register ['.' swizzle] ['|']
//! register    ::= FILE bracket ['(' array-id ')'] [bracket ['(' array-id ')']]
//! bracket     ::= '[' (uint | FILE '[' uint ']' ['.' comp] [('+' | '-') uint]) ']'
//! ```
//!
//! Old headers carry a version (`FRAG1.1`, from Mesa's `graw` tests); it is accepted and
//! ignored. A source swizzle may have one to four letters; a short one repeats its last letter
//! (`.x` is `.xxxx`).

mod cursor;
mod decl;
mod number;

use super::ast::{
    Dst, Index, Indirect, Instruction, Processor, Program, RegFile, RegRef, Src, TexOffset,
    TextureTarget,
};
use super::error::{Pos, Result, TgsiError};
use super::lexer::{lex, Line, TokKind};
use super::limits::MAX_STATEMENTS;
use super::opcode::Opcode;
use cursor::Cursor;

/// Parses TGSI text.
pub fn parse(text: &str) -> Result<Program> {
    let lines = lex(text)?;
    let Some((first, rest)) = lines.split_first() else {
        return Err(TgsiError::Expected {
            pos: Pos::new(1, 1),
            expected: "a shader header".into(),
            found: "end of input".into(),
        });
    };
    let (processor, header_pos) = header(first)?;
    let mut program = Program {
        processor,
        header_pos,
        decls: Vec::new(),
        imms: Vec::new(),
        props: Vec::new(),
        insts: Vec::new(),
    };
    if rest.len() > MAX_STATEMENTS {
        return Err(TgsiError::limit(
            rest[MAX_STATEMENTS].tokens[0].pos,
            format!("more than {MAX_STATEMENTS} statements"),
        ));
    }
    for line in rest {
        statement(line, &mut program)?;
    }
    Ok(program)
}

fn header(line: &Line<'_>) -> Result<(Processor, Pos)> {
    let mut c = Cursor::new(line);
    let (word, pos) = c.word("a shader header")?;
    let found = Processor::NAMES.iter().find_map(|&(name, p)| {
        let version = word.strip_prefix(name)?;
        version
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then_some((p, version))
    });
    let Some((processor, version)) = found else {
        return Err(TgsiError::UnknownHeader { pos, name: word });
    };
    // `FRAG1.1`: the lexer splits the minor version off as the number `.1`.
    if !version.is_empty() {
        if let Some(t) = c.peek() {
            if t.kind == TokKind::Number && t.text.starts_with('.') {
                c.bump();
            }
        }
    }
    c.finish()?;
    Ok((processor, pos))
}

fn statement(line: &Line<'_>, program: &mut Program) -> Result<()> {
    let mut c = Cursor::new(line);
    let mut label = None;
    if c.peek_kind() == Some(TokKind::Number) && c.peek2_kind() == Some(TokKind::Colon) {
        label = Some(c.uint("label")?);
        c.bump();
    }
    let Some(first) = c.peek() else {
        return Err(c.expected("an instruction"));
    };
    if first.kind != TokKind::Word {
        return Err(c.expected("a statement"));
    }
    let keyword = first.text.to_ascii_uppercase();
    if label.is_none() {
        match keyword.as_str() {
            "DCL" => {
                c.bump();
                let d = decl::declaration(&mut c, first.pos)?;
                program.decls.push(d);
                return c.finish();
            }
            "IMM" => {
                c.bump();
                let imm = decl::immediate(&mut c, first.pos, program.imms.len())?;
                program.imms.push(imm);
                return c.finish();
            }
            "PROPERTY" => {
                c.bump();
                let p = decl::property(&mut c, first.pos)?;
                program.props.push(p);
                return c.finish();
            }
            _ => {}
        }
    }
    let inst = instruction(&mut c, label)?;
    program.insts.push(inst);
    c.finish()
}

/// Splits `_SAT` and `_PRECISE` off a mnemonic (in that order, as Mesa prints them).
fn mnemonic(word: &str) -> Option<(Opcode, bool, bool)> {
    if let Some(op) = Opcode::from_name(word) {
        return Some((op, false, false));
    }
    let (rest, precise) = match word.strip_suffix("_PRECISE") {
        Some(r) => (r, true),
        None => (word, false),
    };
    let (rest, saturate) = match rest.strip_suffix("_SAT") {
        Some(r) => (r, true),
        None => (rest, false),
    };
    if !(precise || saturate) {
        return None;
    }
    Opcode::from_name(rest).map(|op| (op, saturate, precise))
}

fn instruction(c: &mut Cursor<'_, '_>, label: Option<u32>) -> Result<Instruction> {
    let (word, pos) = c.word("an opcode")?;
    let Some((opcode, saturate, precise)) = mnemonic(&word) else {
        return Err(TgsiError::UnknownOpcode { pos, name: word });
    };
    let info = opcode.info();
    let mut inst = Instruction {
        pos,
        label,
        opcode,
        saturate,
        precise,
        dsts: Vec::new(),
        srcs: Vec::new(),
        texture: None,
        tex_offsets: Vec::new(),
        memory_attrs: Vec::new(),
        target: None,
    };
    let required = info.num_dst + info.num_src - info.optional_src;
    for i in 0..info.num_dst + info.num_src {
        if i >= required && c.peek_kind() != Some(TokKind::Comma) && (i > 0 || at_operand_end(c)) {
            break;
        }
        if i > 0 {
            c.expect(TokKind::Comma)?;
        }
        if i < info.num_dst {
            inst.dsts.push(dst(c)?);
        } else {
            inst.srcs.push(src(c)?);
        }
    }
    if info.tex {
        if !inst.dsts.is_empty() || !inst.srcs.is_empty() {
            c.expect(TokKind::Comma)?;
        }
        let (name, tpos) = c.word("a texture target")?;
        inst.texture = Some(TextureTarget::parse(&name).ok_or(TgsiError::UnknownName {
            pos: tpos,
            what: "texture target",
            name,
        })?);
        while c.eat(TokKind::Comma) {
            inst.tex_offsets.push(tex_offset(c)?);
        }
    }
    if info.memory {
        while c.eat(TokKind::Comma) {
            let (attr, _) = c.word("a memory qualifier, texture target or format")?;
            inst.memory_attrs.push(attr);
        }
    }
    if opcode.takes_label() && c.eat(TokKind::Colon) {
        inst.target = Some(c.uint("branch label")?);
    }
    Ok(inst)
}

/// True where an optional first operand is absent: at the end of the line or a `:label`.
fn at_operand_end(c: &Cursor<'_, '_>) -> bool {
    matches!(c.peek_kind(), None | Some(TokKind::Colon))
}

fn file(c: &mut Cursor<'_, '_>) -> Result<(RegFile, Pos)> {
    let (name, pos) = c.word("a register file")?;
    match RegFile::parse(&name) {
        Some(f) => Ok((f, pos)),
        None => Err(TgsiError::UnknownFile { pos, name }),
    }
}

fn component(letter: u8) -> Option<u8> {
    match letter.to_ascii_lowercase() {
        b'x' => Some(0),
        b'y' => Some(1),
        b'z' => Some(2),
        b'w' => Some(3),
        _ => None,
    }
}

/// `[uint]` or `[FILE[uint].c +- uint]`
fn bracket(c: &mut Cursor<'_, '_>) -> Result<Index> {
    c.expect(TokKind::LBracket)?;
    let index = if c.peek_kind() == Some(TokKind::Word) {
        let (file, pos) = file(c)?;
        c.expect(TokKind::LBracket)?;
        let index = c.uint("register index")?;
        c.expect(TokKind::RBracket)?;
        let mut comp = 0;
        if c.eat(TokKind::Dot) {
            let (letters, lpos) = c.raw_word("a component `x`, `y`, `z` or `w`")?;
            comp = match letters.as_bytes() {
                [l] => component(*l),
                _ => None,
            }
            .ok_or_else(|| TgsiError::Expected {
                pos: lpos,
                expected: "a component `x`, `y`, `z` or `w`".into(),
                found: format!("`{letters}`"),
            })?;
        }
        let mut offset = 0i64;
        if c.eat(TokKind::Plus) {
            offset = c.uint("index offset")? as i64;
        } else if c.eat(TokKind::Minus) {
            offset = -(c.uint("index offset")? as i64);
        }
        Index {
            offset,
            indirect: Some(Indirect {
                file,
                index,
                comp,
                pos,
            }),
        }
    } else {
        Index {
            offset: c.uint("register index")? as i64,
            indirect: None,
        }
    };
    c.expect(TokKind::RBracket)?;
    Ok(index)
}

fn array_id(c: &mut Cursor<'_, '_>) -> Result<Option<u32>> {
    if !c.eat(TokKind::LParen) {
        return Ok(None);
    }
    let id = c.uint("array id")?;
    c.expect(TokKind::RParen)?;
    Ok(Some(id))
}

fn register(c: &mut Cursor<'_, '_>) -> Result<RegRef> {
    let (file, pos) = file(c)?;
    let first = bracket(c)?;
    let mut array = array_id(c)?;
    let mut reg = RegRef {
        pos,
        file,
        index: first,
        dimension: None,
        array_id: None,
    };
    if c.peek_kind() == Some(TokKind::LBracket) {
        reg.dimension = Some(first);
        reg.index = bracket(c)?;
        if let Some(id) = array_id(c)? {
            array = Some(id);
        }
    }
    reg.array_id = array;
    Ok(reg)
}

/// A swizzle of one to `n` letters; missing channels repeat the last letter.
fn swizzle<const N: usize>(c: &mut Cursor<'_, '_>) -> Result<[u8; N]> {
    let (letters, pos) = c.raw_word("a swizzle")?;
    let bytes = letters.as_bytes();
    let comps: Option<Vec<u8>> = bytes.iter().map(|&b| component(b)).collect();
    match comps {
        Some(comps) if !comps.is_empty() && comps.len() <= N => {
            let mut out = [0u8; N];
            for (i, slot) in out.iter_mut().enumerate() {
                *slot = comps[i.min(comps.len() - 1)];
            }
            Ok(out)
        }
        _ => Err(TgsiError::Expected {
            pos,
            expected: format!("a swizzle of 1 to {N} letters from `xyzw`"),
            found: format!("`{letters}`"),
        }),
    }
}

fn src(c: &mut Cursor<'_, '_>) -> Result<Src> {
    let pos = c.pos();
    let negate = c.eat(TokKind::Minus);
    let absolute = c.eat(TokKind::Bar);
    let reg = register(c)?;
    let swz = if c.eat(TokKind::Dot) {
        swizzle::<4>(c)?
    } else {
        [0, 1, 2, 3]
    };
    if absolute {
        c.expect(TokKind::Bar)?;
    }
    Ok(Src {
        pos,
        reg,
        swizzle: swz,
        negate,
        absolute,
    })
}

/// A write mask: an ordered, non-empty subset of `xyzw`.
fn write_mask(c: &mut Cursor<'_, '_>) -> Result<u8> {
    let (letters, pos) = c.raw_word("a write mask")?;
    let mut mask = 0u8;
    let mut last = None;
    for b in letters.bytes() {
        match component(b) {
            Some(comp) if last.is_none_or(|l| comp > l) => {
                mask |= 1 << comp;
                last = Some(comp);
            }
            _ => {
                return Err(TgsiError::Expected {
                    pos,
                    expected: "a write mask (an ordered subset of `xyzw`)".into(),
                    found: format!("`{letters}`"),
                })
            }
        }
    }
    Ok(mask)
}

fn dst(c: &mut Cursor<'_, '_>) -> Result<Dst> {
    let pos = c.pos();
    let reg = register(c)?;
    let mask = if c.eat(TokKind::Dot) {
        write_mask(c)?
    } else {
        0xf
    };
    Ok(Dst { pos, reg, mask })
}

fn tex_offset(c: &mut Cursor<'_, '_>) -> Result<TexOffset> {
    let pos = c.pos();
    let reg = register(c)?;
    let swz = if c.eat(TokKind::Dot) {
        swizzle::<3>(c)?
    } else {
        [0, 1, 2]
    };
    Ok(TexOffset {
        pos,
        reg,
        swizzle: swz,
    })
}
