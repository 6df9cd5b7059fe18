//! Reading source operands and writing destinations, component by component.
//!
//! - Swizzles pick the component each channel reads; a write mask picks the channels
//!   written. Modifiers apply after the read: for float reads absolute value then negation
//!   (`fabs`, `fneg`); for integer reads negation is `ineg` (Mesa's `fetch_source`); untyped
//!   reads (`MOV`, `UCMP`) count as float when they carry a modifier.
//! - `_SAT` clamps each written value to [0, 1] as a float.
//! - Indirect addressing (`TEMP[ADDR[0].x + 2](1)`, `IMM[ADDR[0].x]`, `IN[...]`) is lowered to
//!   a chain of selects over the registers the access may reach (its array, or the whole
//!   file): the IR has no private memory, and TGSI arrays are small. An index outside them
//!   reads zero and writes nothing. Indirect writes select per element between the new and
//!   the old value.
//! - Constant buffers are memory: `CONST[x][y].c` loads the 32-bit word at byte
//!   `16 * y + 4 * c` of buffer `x` (an indirect `y` becomes a dynamic offset).

use super::regs::is_tracked;
use super::Lifter;
use crate::tgsi::ast::{ImmType, Index, RegFile, RegRef, Src};
use crate::tgsi::error::{Pos, Result, TgsiError};
use agxc_egraph::ir::{Const, EffectOp, MemAccess, PureOp, Type, Value};

/// The type an instruction reads a source as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Want {
    /// 32-bit float (float modifiers).
    F32,
    /// 32-bit integer (integer negation).
    I32,
    /// Whatever the register holds (float modifiers if any).
    Raw,
}

impl Want {
    fn ty(self) -> Option<Type> {
        match self {
            Want::F32 => Some(Type::F32),
            Want::I32 => Some(Type::I32),
            Want::Raw => None,
        }
    }
}

impl Lifter<'_, '_> {
    /// Source `s` of the current instruction, channel `chan` (through its swizzle).
    pub(super) fn fetch(&mut self, s: usize, chan: usize, want: Want) -> Result<Value> {
        let src = self.src(s)?;
        self.fetch_comp(s, src.swizzle[chan & 3], want)
    }

    /// Source `s` of the current instruction.
    pub(super) fn src(&self, s: usize) -> Result<Src> {
        let inst = self.inst();
        inst.srcs.get(s).copied().ok_or_else(|| {
            TgsiError::invalid(
                inst.pos,
                format!("{} needs source operand {}", inst.opcode.name(), s + 1),
            )
        })
    }

    /// Component `comp` (after swizzling) of source `s`.
    pub(super) fn fetch_comp(&mut self, s: usize, comp: u8, want: Want) -> Result<Value> {
        if let Some(&v) = self.cache.get(&(s, comp, want)) {
            return Ok(v);
        }
        let src = self.src(s)?;
        let raw = self.read(&src.reg, comp, want.ty())?;
        let v = self.modifiers(raw, &src, want);
        self.cache.insert((s, comp, want), v);
        Ok(v)
    }

    fn modifiers(&mut self, v: Value, src: &Src, want: Want) -> Value {
        if !src.absolute && !src.negate {
            return match want.ty() {
                Some(ty) => self.cast(v, ty),
                None => v,
            };
        }
        match want {
            Want::I32 => {
                let mut v = self.cast(v, Type::I32);
                if src.absolute {
                    v = self.b.pure(PureOp::Iabs, &[v]);
                }
                if src.negate {
                    v = self.b.pure(PureOp::Ineg, &[v]);
                }
                v
            }
            Want::F32 | Want::Raw => {
                let mut v = self.cast(v, Type::F32);
                if src.absolute {
                    v = self.b.pure(PureOp::Fabs, &[v]);
                }
                if src.negate {
                    v = self.b.pure(PureOp::Fneg, &[v]);
                }
                v
            }
        }
    }

    /// The index an [`Index`] denotes, as an i32 value.
    pub(super) fn index_value(&mut self, index: &Index) -> Result<Value> {
        let Some(ind) = index.indirect else {
            return Ok(self.b.i32(index.offset as i32));
        };
        let reg = RegRef {
            pos: ind.pos,
            file: ind.file,
            index: Index {
                offset: ind.index as i64,
                indirect: None,
            },
            dimension: None,
            array_id: None,
        };
        let base = self.read(&reg, ind.comp, Some(Type::I32))?;
        let base = self.cast(base, Type::I32);
        if index.offset == 0 {
            return Ok(base);
        }
        let off = self.b.i32(index.offset as i32);
        Ok(self.b.pure(PureOp::Iadd, &[base, off]))
    }

    fn direct_index(&self, reg: &RegRef) -> Result<u32> {
        u32::try_from(reg.index.offset)
            .map_err(|_| TgsiError::invalid(reg.pos, "negative register index"))
    }

    fn check_declared(&self, reg: &RegRef, index: u32) -> Result<()> {
        if self.decls.is_declared(reg.file, index) {
            Ok(())
        } else {
            Err(TgsiError::invalid(
                reg.pos,
                format!("{}[{index}] is not declared", reg.file.name()),
            ))
        }
    }

    /// Reads component `comp` of `reg` (no modifiers); `ty` is the type wanted, if any.
    pub(super) fn read(&mut self, reg: &RegRef, comp: u8, ty: Option<Type>) -> Result<Value> {
        if self.is_vertex_read(reg) {
            return self.read_vertex_input(reg, comp);
        }
        if reg.dimension.is_some() && reg.file != RegFile::Const {
            return Err(TgsiError::invalid(
                reg.pos,
                format!("{} registers have one dimension", reg.file.name()),
            ));
        }
        if reg.index.indirect.is_some() && reg.file != RegFile::Const {
            return self.read_indirect(reg, comp, ty);
        }
        match reg.file {
            f if is_tracked(f) => {
                let index = self.direct_index(reg)?;
                self.check_declared(reg, index)?;
                match self.regs.id(f, index, comp) {
                    Some(id) => Ok(self.current(id)),
                    None => Ok(self.zero(ty.unwrap_or(Type::F32))),
                }
            }
            RegFile::Immediate => {
                let index = self.direct_index(reg)?;
                self.immediate(index, comp, ty, reg.pos)
            }
            RegFile::Input | RegFile::SystemValue => {
                let index = self.direct_index(reg)?;
                self.input_value(reg.file, index, comp, reg.pos)
            }
            RegFile::Const => self.load_const(reg, comp, ty),
            other => Err(TgsiError::invalid(
                reg.pos,
                format!("{} registers cannot be read as values", other.name()),
            )),
        }
    }

    fn immediate(&mut self, index: u32, comp: u8, ty: Option<Type>, pos: Pos) -> Result<Value> {
        let Some(imm) = self.prog.imms.get(index as usize) else {
            return Err(TgsiError::invalid(
                pos,
                format!(
                    "IMM[{index}] does not exist ({} immediates)",
                    self.prog.imms.len()
                ),
            ));
        };
        let bits = imm.slots[comp as usize & 3] as u64;
        let ty = ty.unwrap_or(if imm.ty == ImmType::Flt32 {
            Type::F32
        } else {
            Type::I32
        });
        Ok(self.b.konst(Const::from_bits(ty, bits)))
    }

    /// `CONST[x][y].comp`: a load from the constant buffer's memory.
    fn load_const(&mut self, reg: &RegRef, comp: u8, ty: Option<Type>) -> Result<Value> {
        let buffer = match reg.dimension {
            None => 0,
            Some(Index {
                indirect: None,
                offset,
            }) => u32::try_from(offset).unwrap_or(u32::MAX),
            Some(Index {
                indirect: Some(ind),
                ..
            }) => {
                return Err(TgsiError::unsupported(
                    ind.pos,
                    self.inst().opcode.name(),
                    "an indirectly indexed constant buffer",
                ))
            }
        };
        let space = self.const_space(buffer, reg.pos)?;
        let ty = ty.unwrap_or(Type::F32);
        let (offset, base) = match reg.index.indirect {
            None => {
                let index = self.direct_index(reg)?;
                if !self
                    .decls
                    .consts
                    .get(&buffer)
                    .is_some_and(|s| s.contains(&index))
                {
                    return Err(TgsiError::invalid(
                        reg.pos,
                        format!("CONST[{buffer}][{index}] is not declared"),
                    ));
                }
                (self.b.i32(0), index * 16)
            }
            Some(_) => {
                let index = self.index_value(&reg.index)?;
                let sixteen = self.b.i32(16);
                (self.b.pure(PureOp::Imul, &[index, sixteen]), 0)
            }
        };
        let access = MemAccess {
            space,
            offset: base + 4 * comp as u32,
        };
        Ok(self.b.effect(EffectOp::Load(access), &[offset], &[ty])[0])
    }

    /// The registers an indirect access may reach, with their current values.
    fn elements(&mut self, reg: &RegRef, comp: u8, ty: Option<Type>) -> Result<Vec<(u32, Value)>> {
        let indices: Vec<u32> = if reg.file == RegFile::Immediate {
            (0..self.prog.imms.len() as u32).collect()
        } else {
            self.decls.elements(reg)?
        };
        let mut out = Vec::with_capacity(indices.len());
        for index in indices {
            let direct = RegRef {
                index: Index {
                    offset: index as i64,
                    indirect: None,
                },
                array_id: None,
                ..*reg
            };
            out.push((index, self.read(&direct, comp, ty)?));
        }
        Ok(out)
    }

    fn read_indirect(&mut self, reg: &RegRef, comp: u8, ty: Option<Type>) -> Result<Value> {
        if !matches!(
            reg.file,
            RegFile::Temp
                | RegFile::Output
                | RegFile::Immediate
                | RegFile::Input
                | RegFile::Address
        ) {
            return Err(TgsiError::unsupported(
                reg.pos,
                self.inst().opcode.name(),
                format!("indirect addressing of {}", reg.file.name()),
            ));
        }
        let index = self.index_value(&reg.index)?;
        let elements = self.elements(reg, comp, ty)?;
        let ty = ty.unwrap_or_else(|| elements.first().map_or(Type::F32, |&(_, v)| self.b.ty(v)));
        let mut acc = self.zero(ty);
        for (i, v) in elements.into_iter().rev() {
            let v = self.cast(v, ty);
            let k = self.b.i32(i as i32);
            let hit = self.b.pure(PureOp::Ieq, &[index, k]);
            acc = self.b.pure(PureOp::Select, &[hit, v, acc]);
        }
        Ok(acc)
    }

    /// Writes `values` (per channel) to destination `d` of the current instruction, under its
    /// write mask and saturation.
    pub(super) fn store(&mut self, d: usize, values: [Option<Value>; 4]) -> Result<()> {
        let inst = self.inst();
        let Some(dst) = inst.dsts.get(d).copied() else {
            return Err(TgsiError::invalid(
                inst.pos,
                format!("{} needs a destination", inst.opcode.name()),
            ));
        };
        if dst.reg.dimension.is_some() {
            return Err(TgsiError::invalid(
                dst.reg.pos,
                format!("{} registers have one dimension", dst.reg.file.name()),
            ));
        }
        // Index registers are read before any channel is written.
        let index = match dst.reg.index.indirect {
            Some(_) => Some(self.index_value(&dst.reg.index)?),
            None => None,
        };
        for (chan, v) in values.into_iter().enumerate() {
            let Some(mut v) = v else { continue };
            if dst.mask & (1 << chan) == 0 {
                continue;
            }
            if inst.saturate {
                let f = self.cast(v, Type::F32);
                v = self.b.pure(PureOp::Fsat, &[f]);
            }
            self.write(&dst.reg, chan as u8, v, index)?;
        }
        Ok(())
    }

    fn write(&mut self, reg: &RegRef, comp: u8, v: Value, index: Option<Value>) -> Result<()> {
        match reg.file {
            RegFile::Null => Ok(()),
            f if is_tracked(f) => match index {
                None => {
                    let i = self.direct_index(reg)?;
                    self.check_declared(reg, i)?;
                    let id = self
                        .regs
                        .id(f, i, comp)
                        .expect("RegTable holds every written component");
                    self.state[id as usize] = Some(v);
                    Ok(())
                }
                Some(index) => {
                    let ty = self.b.ty(v);
                    for i in self.decls.elements(reg)? {
                        let Some(id) = self.regs.id(f, i, comp) else {
                            continue;
                        };
                        let old = self.current(id);
                        let old = self.cast(old, ty);
                        let k = self.b.i32(i as i32);
                        let hit = self.b.pure(PureOp::Ieq, &[index, k]);
                        let new = self.b.pure(PureOp::Select, &[hit, v, old]);
                        self.state[id as usize] = Some(new);
                    }
                    Ok(())
                }
            },
            other => Err(TgsiError::invalid(
                reg.pos,
                format!(
                    "{} registers cannot be written by {}",
                    other.name(),
                    self.inst().opcode.name()
                ),
            )),
        }
    }

    /// The write mask of destination 0.
    pub(super) fn dst_mask(&self) -> u8 {
        self.inst().dsts.first().map_or(0, |d| d.mask)
    }
}
