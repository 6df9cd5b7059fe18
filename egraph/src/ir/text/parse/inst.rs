//! Instruction lines: results, mnemonic with suffixes, attributes, operands, and the blocks of
//! structured instructions.

use super::Parser;
use crate::ir::constant::Const;
use crate::ir::effects::{
    AtomicOp, Axis, Binding, DerivPrecision, EffectOp, FetchOp, InputSlot, MemAccess, OutputSlot,
    SampleOp, SizeOp,
};
use crate::ir::entities::{Block, Value};
use crate::ir::function::{InstData, InstFlags, Op, ValueDef};
use crate::ir::image::{ImageFormat, ImageOp};
use crate::ir::ops::PureOp;
use crate::ir::text::error::{ParseError, ParseErrorKind};
use crate::ir::text::lex::{Pos, Tok};
use crate::ir::text::syntax::{self, SpaceWord};
use crate::ir::types::Type;
use crate::ir::verify::MAX_NESTING;
use smallvec::SmallVec;

/// What a mnemonic names, before its attributes and operands are read.
#[derive(Clone, Copy)]
enum Mnemonic {
    /// Any operation whose line is just operands (pure, target, structured, terminators).
    Plain(Op),
    Const,
    Load,
    Store,
    Atomic,
    BufferSize,
    Barrier,
    Builtin,
    Input,
    Output,
    VertexInput,
    EmitVertex,
    EndPrimitive,
    Derivative(Axis, DerivPrecision),
    Sample,
    Fetch,
    TexSize,
    TexLevels,
    /// `image_load`, `image_store` or `image_size`: target, format, `img(SET, BINDING)`.
    Image(fn(ImageOp) -> EffectOp),
}

impl<'a> Parser<'a, '_> {
    /// One instruction line (and, for `if` and `loop`, the blocks it opens).
    pub(super) fn inst_line(&mut self, block: Block, depth: usize) -> Result<(), ParseError> {
        let results = if self.peek_word().is_some_and(|w| w.starts_with('v'))
            && *self.peek_at(1) == Tok::Punct(':')
        {
            let decls = self.decls()?;
            self.expect_punct('=', "`=` after the results")?;
            decls
        } else {
            Vec::new()
        };
        let (word, pos) = self.word("an operation")?;
        let (mnemonic, flags) = self.mnemonic(word, pos)?;
        let (op, args) = self.attributes_and_operands(mnemonic, &results, pos)?;

        let inst = self.func.make_inst(InstData {
            op,
            args: args.into(),
            results: results.iter().map(|&(v, _, _)| v).collect(),
            blocks: SmallVec::new(),
            flags,
        });
        for (i, &(v, ty, pos)) in results.iter().enumerate() {
            self.define_value(v, ty, ValueDef::Result(inst, i as u32), pos)?;
        }
        self.func.blocks[block].insts.push(inst);

        if matches!(op, Op::If | Op::Loop) {
            self.expect_punct('{', "`{` opening the blocks")?;
            self.end_of_line()?;
            if depth + 1 > MAX_NESTING {
                return Err(pos.error(ParseErrorKind::TooDeep(MAX_NESTING)));
            }
            loop {
                self.skip_newlines();
                let child = self.block(Some(inst), depth + 1)?;
                self.func.insts[inst].blocks.push(child);
                self.expect_punct('}', "`}`")?;
                if self.peek_word() != Some("else") {
                    break;
                }
                self.bump();
                self.expect_punct('{', "`{` after `else`")?;
                self.end_of_line()?;
            }
        }
        self.end_of_line()
    }

    /// Splits `.nocontract`/`.relaxed` (and a derivative's precision) off a mnemonic and looks
    /// the rest up.
    fn mnemonic(&self, word: &str, pos: Pos) -> Result<(Mnemonic, InstFlags), ParseError> {
        let mut base = word;
        let mut flags = InstFlags::NONE;
        'strip: loop {
            for (flag, suffix) in syntax::INST_FLAGS {
                if let Some(rest) = base
                    .strip_suffix(suffix)
                    .and_then(|r| r.strip_suffix('.'))
                    .filter(|r| !r.is_empty() && !flags.contains(flag))
                {
                    flags.set(flag, true);
                    base = rest;
                    continue 'strip;
                }
            }
            break;
        }
        if let Some(m) = self.lookup(base) {
            return Ok((m, flags));
        }
        let unknown_suffix = |op: &str, suffix: &str| {
            pos.error(ParseErrorKind::UnknownSuffix {
                op: op.into(),
                suffix: suffix.into(),
            })
        };
        if let Some((head, suffix)) = base.split_once('.') {
            let axis = match head {
                "ddx" => Some(Axis::X),
                "ddy" => Some(Axis::Y),
                _ => None,
            };
            if let Some(axis) = axis {
                let p =
                    syntax::parse_precision(suffix).ok_or_else(|| unknown_suffix(head, suffix))?;
                return Ok((Mnemonic::Derivative(axis, p), flags));
            }
            if self.lookup(head).is_some() {
                return Err(unknown_suffix(head, suffix));
            }
        }
        Err(pos.error(ParseErrorKind::UnknownOp(base.into())))
    }

    fn lookup(&self, name: &str) -> Option<Mnemonic> {
        if let Some(op) = PureOp::from_name(name) {
            return Some(Mnemonic::Plain(Op::Pure(op)));
        }
        Some(match name {
            "const" => Mnemonic::Const,
            "load" => Mnemonic::Load,
            "store" => Mnemonic::Store,
            "atomic" => Mnemonic::Atomic,
            "buffer_size" => Mnemonic::BufferSize,
            "barrier" => Mnemonic::Barrier,
            "builtin" => Mnemonic::Builtin,
            "input" => Mnemonic::Input,
            "output" => Mnemonic::Output,
            "vertex_input" => Mnemonic::VertexInput,
            "emit_vertex" => Mnemonic::EmitVertex,
            "end_primitive" => Mnemonic::EndPrimitive,
            "ddx" => Mnemonic::Derivative(Axis::X, DerivPrecision::Default),
            "ddy" => Mnemonic::Derivative(Axis::Y, DerivPrecision::Default),
            "sample" => Mnemonic::Sample,
            "fetch" => Mnemonic::Fetch,
            "tex_size" => Mnemonic::TexSize,
            "tex_levels" => Mnemonic::TexLevels,
            "image_load" => Mnemonic::Image(EffectOp::ImageLoad),
            "image_store" => Mnemonic::Image(EffectOp::ImageStore),
            "image_size" => Mnemonic::Image(EffectOp::ImageSize),
            "demote" => Mnemonic::Plain(Op::Effect(EffectOp::Demote)),
            "if" => Mnemonic::Plain(Op::If),
            "loop" => Mnemonic::Plain(Op::Loop),
            "yield" => Mnemonic::Plain(Op::Yield),
            "break" => Mnemonic::Plain(Op::Break),
            "continue" => Mnemonic::Plain(Op::Continue),
            "return" => Mnemonic::Plain(Op::Return),
            "discard" => Mnemonic::Plain(Op::Discard),
            _ => {
                return self
                    .registry
                    .get(name)
                    .map(|op| Mnemonic::Plain(Op::Custom(op)))
            }
        })
    }

    fn attributes_and_operands(
        &mut self,
        mnemonic: Mnemonic,
        results: &[(Value, Type, Pos)],
        pos: Pos,
    ) -> Result<(Op, Vec<Value>), ParseError> {
        let effect = match mnemonic {
            Mnemonic::Plain(op) => return Ok((op, self.operands()?)),
            Mnemonic::Const => {
                let [(_, ty, _)] = results else {
                    return Err(pos.error(ParseErrorKind::ConstResults(results.len())));
                };
                let literal = match *self.peek() {
                    Tok::Word(w) => w,
                    _ => return Err(self.expected("a literal")),
                };
                let c = Const::parse(*ty, literal).map_err(|e| self.here().error(e.into()))?;
                self.bump();
                return Ok((Op::Const(c), Vec::new()));
            }
            Mnemonic::Load | Mnemonic::Store => {
                let (access, addr) = self.address()?;
                let mut args = vec![addr];
                // Stored values follow the address after a comma.
                if self.eat_punct(',') {
                    let rest = self.operands()?;
                    if rest.is_empty() {
                        return Err(self.expected("a value (`vN`)"));
                    }
                    args.extend(rest);
                }
                let op = if matches!(mnemonic, Mnemonic::Load) {
                    EffectOp::Load(access)
                } else {
                    EffectOp::Store(access)
                };
                return Ok((Op::Effect(op), args));
            }
            Mnemonic::Atomic => {
                // `atomic OP SPACE [ADDR + OFFSET], VALUES`
                let (w, wpos) = self.word("an atomic operation (`add`, `cmpxchg`, ...)")?;
                let op =
                    AtomicOp::from_name(w).ok_or_else(|| unknown(wpos, "atomic operation", w))?;
                let (access, addr) = self.address()?;
                self.expect_punct(',', "`,` and the atomic's values")?;
                let mut args = vec![addr];
                args.extend(self.operands()?);
                return Ok((Op::Effect(EffectOp::Atomic(op, access)), args));
            }
            Mnemonic::BufferSize => EffectOp::BufferSize(self.binding()?),
            Mnemonic::Barrier => {
                let (w, wpos) = self.word("`workgroup` or `memory`")?;
                let kind =
                    syntax::parse_barrier(w).ok_or_else(|| unknown(wpos, "barrier kind", w))?;
                EffectOp::Barrier(kind)
            }
            Mnemonic::Builtin => {
                let (w, wpos) = self.word("a built-in name")?;
                let b = syntax::parse_builtin(w).ok_or_else(|| unknown(wpos, "built-in", w))?;
                EffectOp::Builtin(b)
            }
            Mnemonic::Input => {
                let (w, wpos) = self.word("an input location (`LOC.C`)")?;
                let (location, component) =
                    syntax::parse_location(w).ok_or_else(|| unknown(wpos, "input location", w))?;
                let (iw, ipos) = self.word("an interpolation mode")?;
                let interp = syntax::parse_interp(iw)
                    .ok_or_else(|| unknown(ipos, "interpolation mode", iw))?;
                let slot = InputSlot {
                    location,
                    component,
                    interp,
                };
                EffectOp::Input(slot)
            }
            Mnemonic::Output => EffectOp::Output(self.output_slot("an output slot")?),
            Mnemonic::VertexInput => EffectOp::VertexInput(
                self.output_slot("a vertex slot (`LOC.C`, `position.C`, ...)")?,
            ),
            Mnemonic::EmitVertex => EffectOp::EmitVertex(self.stream()?),
            Mnemonic::EndPrimitive => EffectOp::EndPrimitive(self.stream()?),
            Mnemonic::Derivative(axis, p) => EffectOp::Derivative(axis, p),
            Mnemonic::Sample => EffectOp::Sample(self.sample()?),
            Mnemonic::Fetch => {
                let target = self.target()?;
                let texture = self.tex_binding("tex")?;
                let offset = if self.peek_word() == Some("offset") {
                    self.texel_offset()?
                } else {
                    [0; 3]
                };
                let op = FetchOp {
                    texture,
                    target,
                    offset,
                };
                EffectOp::Fetch(op)
            }
            Mnemonic::TexSize => {
                let target = self.target()?;
                let texture = self.tex_binding("tex")?;
                EffectOp::TexSize(SizeOp { texture, target })
            }
            Mnemonic::TexLevels => EffectOp::TexLevels(self.tex_binding("tex")?),
            Mnemonic::Image(make) => {
                let target = self.target()?;
                let (w, wpos) =
                    self.word("an image format (`rgba32f`, `r32ui`, `unknown`, ...)")?;
                let format =
                    ImageFormat::parse(w).ok_or_else(|| unknown(wpos, "image format", w))?;
                self.keyword("img", "`img(SET, BINDING)`")?;
                let image = self.binding()?;
                make(ImageOp {
                    image,
                    target,
                    format,
                })
            }
        };
        Ok((Op::Effect(effect), self.operands()?))
    }

    /// `LOC.C` or a named slot (`position.x`, `point_size`, `frag_depth`).
    fn output_slot(&mut self, expected: &'static str) -> Result<OutputSlot, ParseError> {
        let (w, wpos) = self.word(expected)?;
        match syntax::parse_location(w) {
            Some((location, component)) => Ok(OutputSlot::Location {
                location,
                component,
            }),
            None => syntax::parse_named_output(w).ok_or_else(|| unknown(wpos, "output slot", w)),
        }
    }

    /// A vertex stream number (its range is the verifier's concern).
    fn stream(&mut self) -> Result<u8, ParseError> {
        let (w, wpos) = self.word("a vertex stream number")?;
        w.parse().map_err(|_| {
            wpos.error(ParseErrorKind::BadNumber {
                text: w.into(),
                what: "vertex stream (0..=255)",
            })
        })
    }

    /// `SPACE [vOFF]` or `SPACE [vOFF + K]`.
    fn address(&mut self) -> Result<(MemAccess, Value), ParseError> {
        let (w, wpos) =
            self.word("an address space (`storage`, `uniform`, `push`, `shared`, `constant`)")?;
        let space = match syntax::parse_space_word(w) {
            Some(SpaceWord::WithBinding(make)) => make(self.binding()?),
            Some(SpaceWord::Plain(space)) => space,
            None => return Err(unknown(wpos, "address space", w)),
        };
        self.expect_punct('[', "`[` and an offset")?;
        let addr = self.use_value()?;
        let offset = if self.eat_punct('+') {
            self.u32("byte offset")?
        } else {
            0
        };
        self.expect_punct(']', "`]`")?;
        Ok((MemAccess { space, offset }, addr))
    }

    /// `(SET, BINDING)`.
    fn binding(&mut self) -> Result<Binding, ParseError> {
        self.expect_punct('(', "`(` and a descriptor set")?;
        let set = self.u32("descriptor set")?;
        self.expect_punct(',', "`,`")?;
        let binding = self.u32("binding")?;
        self.expect_punct(')', "`)`")?;
        Ok(Binding { set, binding })
    }

    /// `tex(SET, BINDING)` or `sampler(SET, BINDING)`.
    fn tex_binding(&mut self, kw: &'static str) -> Result<Binding, ParseError> {
        let expected = if kw == "tex" {
            "`tex(SET, BINDING)`"
        } else {
            "`sampler(SET, BINDING)`"
        };
        self.keyword(kw, expected)?;
        self.binding()
    }

    fn target(&mut self) -> Result<crate::ir::effects::TexTarget, ParseError> {
        let (w, wpos) = self.word("a texture target (`1d`, `2d`, `3d`, `cube`, `..._array`)")?;
        syntax::parse_target(w).ok_or_else(|| unknown(wpos, "texture target", w))
    }

    /// `offset(X, Y, Z)`.
    fn texel_offset(&mut self) -> Result<[i8; 3], ParseError> {
        self.keyword("offset", "`offset`")?;
        self.expect_punct('(', "`(`")?;
        let mut offset = [0i8; 3];
        for (i, o) in offset.iter_mut().enumerate() {
            if i > 0 {
                self.expect_punct(',', "`,`")?;
            }
            let (w, wpos) = self.word("a texel offset")?;
            *o = w.parse().map_err(|_| {
                wpos.error(ParseErrorKind::BadNumber {
                    text: w.into(),
                    what: "texel offset (-128..=127)",
                })
            })?;
        }
        self.expect_punct(')', "`)`")?;
        Ok(offset)
    }

    /// `TARGET tex(S, B) sampler(S, B) LOD [proj] [shadow] [min_lod] [offset(X, Y, Z)]`.
    fn sample(&mut self) -> Result<SampleOp, ParseError> {
        let target = self.target()?;
        let texture = self.tex_binding("tex")?;
        let sampler = self.tex_binding("sampler")?;
        let (w, wpos) = self
            .word("a LOD mode (`implicit`, `bias`, `explicit`, `grad`, `gather_x`..`gather_w`)")?;
        let lod = syntax::parse_lod(w).ok_or_else(|| unknown(wpos, "LOD mode", w))?;
        let mut op = SampleOp {
            texture,
            sampler,
            target,
            lod,
            proj: false,
            shadow: false,
            min_lod: false,
            offset: [0; 3],
        };
        // The optional words come in a fixed order, each at most once.
        op.proj = self.eat_word("proj");
        op.shadow = self.eat_word("shadow");
        op.min_lod = self.eat_word("min_lod");
        if self.peek_word() == Some("offset") {
            op.offset = self.texel_offset()?;
        }
        Ok(op)
    }
}

pub(super) fn unknown(pos: Pos, what: &'static str, word: &str) -> ParseError {
    pos.error(ParseErrorKind::UnknownAttribute {
        what,
        word: word.into(),
    })
}
