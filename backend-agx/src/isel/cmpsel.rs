//! Selection of the G13 target's compare-and-select operations (`g13.fcmpsel_*`,
//! `g13.icmpsel_*`, see `target::cmpsel`).
//!
//! The optimizer only forms them where one instruction does the job: compared and selected
//! values in registers of one width, 16 or 32 bits. That is one `fcmpsel`/`icmpsel`, with float
//! operands folding `fneg`/`fabs` as source modifiers and small constants as immediates. Every
//! other typing the signature allows (IR written by hand) is still selected, with a longer
//! sequence: a 64-bit selection takes one instruction per word, and a width mismatch goes
//! through a `bool` register as an IR `select` of a comparison would. 64-bit comparisons have no
//! single instruction and are refused with an error.

use agxc_egraph::ir::{CustomOp, Inst, PureOp, Type, Value};

use super::{class_of, Isel};
use crate::error::BackendError;
use crate::isa::{Cmp, FCond, ICond, RegClass, Src};
use crate::mir::VReg;
use crate::target::cmpsel::comparison;

impl Isel<'_> {
    /// Selects `op` if it is a compare-and-select operation; `Ok(false)` if it is not one.
    pub(super) fn cmpsel(&mut self, inst: Inst, op: CustomOp) -> Result<bool, BackendError> {
        let Some(relation) = comparison(op) else {
            return Ok(false);
        };
        let data = &self.func.insts[inst];
        let (&[a, b, x, y], &[r]) = (data.args.as_slice(), data.results.as_slice()) else {
            return Err(self.internal(format!("{} takes four operands and one result", op)));
        };
        let compared = self.func.value_type(a);
        let selected = self.func.value_type(r);
        let cmp = self.cmpsel_comparison(relation, compared, a, b)?;
        let cmp_bits = if class_of(compared) == RegClass::H16 {
            16
        } else {
            32
        };
        let dst = self.m.new_group(class_of(selected));
        match class_of(selected) {
            RegClass::R64 if cmp_bits == 32 => {
                let (xr, yr) = (self.reg(x), self.reg(y));
                for w in 0..2 {
                    self.select_cmp(dst.word(w), cmp, Src::reg(xr.word(w)), Src::reg(yr.word(w)));
                }
            }
            class if register_bits(class) == Some(cmp_bits) => {
                let (xs, ys) = (self.sel_src(x), self.sel_src(y));
                self.select_cmp(dst, cmp, xs, ys);
            }
            _ => self.select_through_bool(dst, cmp, cmp_bits, x, y),
        }
        self.set(r, dst);
        Ok(true)
    }

    /// The machine comparison for IR comparison `relation` of `a` and `b` (of type `ty`).
    fn cmpsel_comparison(
        &self,
        relation: PureOp,
        ty: Type,
        a: Value,
        b: Value,
    ) -> Result<Cmp<VReg>, BackendError> {
        if ty.is_float() {
            let cond = match relation {
                PureOp::Feq => FCond::Eq,
                PureOp::Flt => FCond::Lt,
                PureOp::Fgt => FCond::Gt,
                PureOp::Fle => FCond::Le,
                PureOp::Fge => FCond::Ge,
                other => {
                    return Err(self.internal(format!("no fcmpsel condition for {}", other.name())))
                }
            };
            return Ok(Cmp::Float {
                cond,
                a: self.fsrc(a),
                b: self.fsrc(b),
            });
        }
        if ty == Type::I64 {
            return Err(self.unsupported("compare-and-select of 64-bit operands"));
        }
        let cond = match relation {
            PureOp::Ieq => ICond::Ueq,
            PureOp::Ult => ICond::Ult,
            PureOp::Ugt => ICond::Ugt,
            PureOp::Slt => ICond::Slt,
            PureOp::Sgt => ICond::Sgt,
            other => {
                return Err(self.internal(format!("no icmpsel condition for {}", other.name())))
            }
        };
        Ok(Cmp::Int {
            cond,
            a: self.src(a),
            b: self.src(b),
        })
    }

    /// `dst = cmp ? x : y` where the comparison's width differs from `dst`'s: the comparison
    /// as a `bool` register, then a selection on it.
    fn select_through_bool(
        &mut self,
        dst: VReg,
        cmp: Cmp<VReg>,
        cmp_bits: u32,
        x: Value,
        y: Value,
    ) {
        let c = self.bool_from_cmp(cmp, false, cmp_bits);
        let words: &[(VReg, Src<VReg>, Src<VReg>)] = &match dst.class {
            RegClass::R64 => {
                let (xr, yr) = (self.reg(x), self.reg(y));
                vec![
                    (dst.word(0), Src::reg(xr.word(0)), Src::reg(yr.word(0))),
                    (dst.word(1), Src::reg(xr.word(1)), Src::reg(yr.word(1))),
                ]
            }
            _ => vec![(dst, self.sel_src(x), self.sel_src(y))],
        };
        for &(d, xs, ys) in words {
            let c = if d.class == RegClass::H16 {
                c.lo16()
            } else {
                c
            };
            self.icmpsel(d, ICond::Ueq, Src::reg(c), Src::Imm(0), ys, xs);
        }
    }
}

/// The width of a scalar register class.
fn register_bits(class: RegClass) -> Option<u32> {
    match class {
        RegClass::H16 => Some(16),
        RegClass::R32 => Some(32),
        _ => None,
    }
}
