//! Conversions.
//!
//! - `bitcast`, `itrunc`: views of the operand's register (no instruction).
//! - `uext`/`sext`: `iadd dst, src(.sx), 0` into the wider register.
//! - `fcvt`: the float move `fadd32 dst, src, -0.0` (an fp32 operation reads f16 sources
//!   exactly and rounds f16 destinations once, as the IR does).
//! - `f2u`/`f2s`/`u2f`/`s2f`: `convert` with docs/g13.md's modes, float to integer rounding
//!   toward zero (clamping, NaN to 0: the IR's saturating semantics), integer to float to
//!   nearest even, the destination's width choosing f16 or f32.
//!
//! Conversions between floats and 64-bit integers are sequences (`int64_ext`).

use agxc_egraph::ir::{Const, PureOp, Type, Value};

use super::{class_of, Isel};
use crate::error::BackendError;
use crate::isa::{ConvertMode, IntSrc, Round, Src};

impl Isel<'_> {
    pub(super) fn conversion(
        &mut self,
        p: PureOp,
        a: Value,
        r: Value,
        from: Type,
        to: Type,
    ) -> Result<(), BackendError> {
        use PureOp::*;
        match p {
            Bitcast => {
                let reg = self.reg(a);
                self.set(r, reg);
                if let Some(c) = self.konst(a) {
                    self.set_const(r, Const::from_bits(to, c.bits()));
                }
            }
            Itrunc => {
                let reg = self.reg(a);
                self.set(r, reg.view(0, class_of(to)));
                if let Some(c) = self.konst(a) {
                    self.set_const(r, Const::from_bits(to, c.bits()));
                }
            }
            Uext | Sext => {
                let dst = self.m.new_group(class_of(to));
                let src = IntSrc {
                    src: self.src(a),
                    sext: p == Sext,
                };
                self.iadd(dst, src, IntSrc::zext(Src::Imm(0)), false);
                self.set(r, dst);
            }
            Fcvt => {
                if from == to {
                    let reg = self.reg(a);
                    self.set(r, reg);
                } else {
                    let dst = self.m.new_group(class_of(to));
                    let s = self.fsrc(a);
                    self.fmov(dst, s);
                    self.set(r, dst);
                }
            }
            F2u | F2s => {
                if to == Type::I64 {
                    let dst = self.float_to_int64(a, p == F2s);
                    self.set(r, dst);
                    return Ok(());
                }
                let mode = match (p, to) {
                    (F2u, Type::I16) => ConvertMode::FToU16,
                    (F2s, Type::I16) => ConvertMode::FToS16,
                    (F2u, Type::I32) => ConvertMode::FToU32,
                    (F2s, Type::I32) => ConvertMode::FToS32,
                    _ => return Err(self.unsupported(format!("{} from {from} to {to}", p.name()))),
                };
                let dst = self.m.new_group(class_of(to));
                // A register source: an immediate here would be read as the float immediate.
                let src = Src::reg(self.reg(a));
                self.convert(dst, src, mode, Round::Rtz);
                self.set(r, dst);
            }
            U2f | S2f => {
                if from == Type::I64 {
                    let x = self.reg(a);
                    let dst = self.int64_to_float(x, p == S2f, to);
                    self.set(r, dst);
                    return Ok(());
                }
                let mode = match (p, from) {
                    (U2f, Type::I16) => ConvertMode::U16ToF,
                    (S2f, Type::I16) => ConvertMode::S16ToF,
                    (U2f, Type::I32) => ConvertMode::U32ToF,
                    (S2f, Type::I32) => ConvertMode::S32ToF,
                    _ => return Err(self.unsupported(format!("{} from {from} to {to}", p.name()))),
                };
                let dst = self.m.new_group(class_of(to));
                let src = self.src(a);
                self.convert(dst, src, mode, Round::Rte);
                self.set(r, dst);
            }
            _ => return Err(self.internal(format!("{} is not a conversion", p.name()))),
        }
        Ok(())
    }
}
