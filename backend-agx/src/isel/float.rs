//! Float operations, comparisons, `select` and the G13 target's own operations.
//!
//! - `fadd`/`fsub`/`fmul`/`fma` map to `fadd`/`fmul`/`fmadd` (fp16 forms for f16), `fsub`
//!   negating its second source; `fneg`/`fabs` become modifiers of their users (and a float
//!   move where a register is needed); `fsat` sets the `.sat` flag of its operand's instruction
//!   when that is its only use.
//! - `fmin`/`fmax`: `fcmpsel` with the "NaN loses" conditions, which docs/g13.md says pick the
//!   wrong zero of `±0`; where both operands may be zero, a second `fcmpsel` on equality
//!   takes the bitwise OR (min) or AND (max) of the operands instead, which orders -0 below
//!   +0 as the IR does.
//! - `floor`/`ceil`/`ftrunc`/`fround_even`/`rsqrt`/`exp2`/`log2`: the one-source family;
//!   `fract = x - floor(x)`; `sqrt = x * rsqrt_special(x)` (docs/g13.md).
//! - `rcp`: `rcp` plus docs/g13.md's Newton-Raphson step `r = fma(fma(-x, u, 1), u, u)`, keeping
//!   `u` where the step gives NaN (x = 0 or inf, where `u` is already exact).
//! - `fdiv a, b`: `q = a * rcp'(b)` then one residual correction `q + fma(-b, q, a) * rcp'(b)`,
//!   again keeping the uncorrected value where the correction gives NaN (q infinite, b = 0).
//! - `sin`/`cos`: docs/g13.md's reduction `q = 4 * fract(x / 2pi [+ 1/4])`, then
//!   `sin_pt_1(q) * sin_pt_2(sin_pt_1(q))`.
//! - `pow(a, b) = exp2(b * log2(a))`.
//! - Comparisons: a `bool` register from `fcmpsel`, and a [`CondForm`] for fusing. Ordered
//!   `fne` and unordered `fequ` need two compares (no condition code is "less or greater").

use agxc_egraph::ir::{CustomOp, Inst, Op, PureOp, Type, Value};

use super::build::{FOUR, NEG_ZERO, ONE};
use super::{class_of, CondForm, FMod, Isel};
use crate::error::BackendError;
use crate::isa::{Cmp, FCond, FSrc, FUnaryOp, ICond, Instr, Precision, RegClass, Src};
use crate::mir::{MInst, VReg};
use crate::target::ops as g13;

/// `1 / (2 pi)` as f32.
const INV_TWO_PI: f32 = 0.159_154_94;

impl Isel<'_> {
    pub(super) fn float_op(
        &mut self,
        inst: Inst,
        p: PureOp,
        args: &[Value],
        r: Value,
        ty: Type,
    ) -> Result<(), BackendError> {
        use PureOp::*;
        let arg_ty = self.func.value_type(args[0]);
        let prec = Self::prec(arg_ty);
        let class = class_of(ty);
        match p {
            Fadd | Fsub | Fmul => {
                let dst = self.m.new_group(class);
                let a = self.arith_src(args[0]);
                let b = self.arith_src(args[1]);
                match p {
                    Fadd => self.fadd(prec, dst, a, b),
                    Fsub => self.fadd(prec, dst, a, b.negated()),
                    _ => self.fmul(prec, dst, a, b),
                }
                self.set(r, dst);
            }
            Fma => {
                let dst = self.m.new_group(class);
                let (a, b, c) = (
                    self.arith_src(args[0]),
                    self.arith_src(args[1]),
                    self.arith_src(args[2]),
                );
                self.fmadd(prec, dst, a, b, c);
                self.set(r, dst);
            }
            Fneg | Fabs => {
                let abs = p == Fabs;
                let dst = self.m.new_group(class);
                let mut a = self.fsrc(args[0]);
                if abs {
                    a.abs = true;
                    a.neg = false;
                } else {
                    a.neg = !a.neg;
                }
                self.fadd(prec, dst, a, FSrc::imm(NEG_ZERO));
                self.set(r, dst);
                self.set_fmod(
                    r,
                    FMod {
                        base: args[0],
                        abs,
                        neg: !abs,
                    },
                );
            }
            Fsat => self.saturate(args[0], r, class, prec),
            Fmin | Fmax => {
                let cond = if p == Fmin {
                    FCond::LtNanLoses
                } else {
                    FCond::GtNanLoses
                };
                let pick = self.m.new_group(class);
                let (a, b) = (self.fsrc(args[0]), self.fsrc(args[1]));
                let (x, y) = (self.sel_src(args[0]), self.sel_src(args[1]));
                self.fcmpsel(pick, cond, a, b, x, y);
                // The NaN-losing compare keeps the second of two equal zeros (docs/g13.md); the
                // IR orders -0 below +0. Equal operands differ at most in the sign of zero,
                // so their bitwise OR (min) or AND (max) is the right one.
                // The compare already picks right when a constant operand is not a zero, or
                // is the zero the selection falls back to: `min(+0, x)`, `min(x, -0)`,
                // `max(-0, x)`, `max(x, +0)` (the common clamps).
                let settled = args.iter().enumerate().any(|(i, &v)| {
                    self.konst(v).is_some_and(|c| {
                        let x = c.as_f64();
                        let second = i == 1;
                        let negative = x.is_sign_negative();
                        (x != 0.0 && !x.is_nan())
                            || (x == 0.0 && (p == Fmin) == (second == negative))
                    })
                });
                // Two operands of the same known sign (say `min(|a|, |b|)`) that compare equal
                // are the same bits, so either pick is right.
                let settled = settled || (self.sign_clear(args[0]) && self.sign_clear(args[1]));
                if settled {
                    self.set(r, pick);
                } else {
                    let table = if p == Fmin {
                        crate::isa::bitop::OR
                    } else {
                        crate::isa::bitop::AND
                    };
                    let both = self.m.new_group(class);
                    self.bitop(both, x, y, table);
                    let dst = self.m.new_group(class);
                    self.fcmpsel(dst, FCond::Eq, a, b, Src::reg(both), Src::reg(pick));
                    self.set(r, dst);
                }
            }
            Floor | Ceil | Ftrunc | FroundEven | Rsqrt | Exp2 | Log2 => {
                let op = match p {
                    Floor => FUnaryOp::Floor,
                    Ceil => FUnaryOp::Ceil,
                    Ftrunc => FUnaryOp::Trunc,
                    FroundEven => FUnaryOp::Rint,
                    Rsqrt => FUnaryOp::Rsqrt,
                    Exp2 => FUnaryOp::Exp2,
                    _ => FUnaryOp::Log2,
                };
                let dst = self.m.new_group(class);
                let a = self.arith_src(args[0]);
                self.funary(op, dst, a);
                self.set(r, dst);
            }
            Fract => {
                let a = self.arith_src(args[0]);
                let fl = self.m.new_group(class);
                self.funary(FUnaryOp::Floor, fl, a);
                let dst = self.m.new_group(class);
                self.fadd(prec, dst, a, FSrc::reg(fl).negated());
                self.set(r, dst);
            }
            Sqrt => {
                let a = self.arith_src(args[0]);
                let rs = self.m.new_group(class);
                self.funary(FUnaryOp::RsqrtSpecial, rs, a);
                let dst = self.m.new_group(class);
                self.fmul(prec, dst, a, FSrc::reg(rs));
                self.set(r, dst);
            }
            Rcp => {
                let a = self.fsrc(args[0]);
                let dst = self.reciprocal(a, ty);
                self.set(r, dst);
            }
            Fdiv => {
                let (a, b) = (self.fsrc(args[0]), self.fsrc(args[1]));
                let dst = self.divide_float(a, b, ty);
                self.set(r, dst);
            }
            Sin | Cos => {
                let x = self.fsrc(args[0]);
                let dst = self.sine(x, p == Cos, ty);
                self.set(r, dst);
            }
            Pow => {
                let (a, b) = (self.fsrc(args[0]), self.fsrc(args[1]));
                let l = self.m.new_group(RegClass::R32);
                self.funary(FUnaryOp::Log2, l, a);
                let m = self.m.new_group(RegClass::R32);
                self.fmul(Precision::F32, m, b, FSrc::reg(l));
                let dst = self.m.new_group(class);
                self.funary(FUnaryOp::Exp2, dst, FSrc::reg(m));
                self.set(r, dst);
            }
            Feq | Fne | Flt | Fle | Fgt | Fge | Fequ | Fneu | Fltu | Fleu | Fgtu | Fgeu => {
                self.float_compare(p, args[0], args[1], r);
            }
            _ => {
                let _ = inst;
                return Err(self.unsupported(format!("{} on {arg_ty}", p.name())));
            }
        }
        Ok(())
    }

    /// `fsat`: folded into the instruction defining `x` when `x` has no other use.
    fn saturate(&mut self, x: Value, r: Value, class: RegClass, prec: Precision) {
        if self.use_count(x) == 1 {
            if let Some(index) = self.def_index(x) {
                if let Some(MInst::Op(i)) = self.m.insts.get_mut(index) {
                    let sat = match i {
                        Instr::Fadd { sat, .. }
                        | Instr::Fmul { sat, .. }
                        | Instr::Fmadd { sat, .. } => Some(sat),
                        Instr::FUnary { sat, op, .. }
                            if !matches!(op, FUnaryOp::Dfdx | FUnaryOp::Dfdy) =>
                        {
                            Some(sat)
                        }
                        _ => None,
                    };
                    if let Some(sat) = sat {
                        *sat = true;
                        let reg = self.reg(x);
                        self.set(r, reg);
                        return;
                    }
                }
            }
        }
        let dst = self.m.new_group(class);
        let a = self.fsrc(x);
        self.m.op(Instr::Fadd {
            prec,
            dst: crate::isa::Dst::new(dst),
            sat: true,
            a,
            b: FSrc::imm(NEG_ZERO),
        });
        self.set(r, dst);
    }

    /// True if `v`'s sign bit is clear whatever its operands (so a zero `v` is +0): an
    /// absolute value, a power of two, or a constant with the sign bit clear.
    fn sign_clear(&self, v: Value) -> bool {
        if let Some(c) = self.konst(v) {
            return !c.as_f64().is_sign_negative();
        }
        self.def_inst(v).is_some_and(|i| {
            matches!(
                self.func.insts[i].op,
                Op::Pure(PureOp::Fabs) | Op::Pure(PureOp::Exp2)
            )
        })
    }

    /// `1 / x` with docs/g13.md's Newton-Raphson step.
    fn reciprocal(&mut self, x: FSrc<VReg>, ty: Type) -> VReg {
        let class = class_of(ty);
        if ty == Type::F16 {
            // The fp32 reciprocal rounded to f16 is already within f16 precision.
            let dst = self.m.new_group(class);
            self.funary(FUnaryOp::Rcp, dst, x);
            return dst;
        }
        let u = self.m.new_group(RegClass::R32);
        self.funary(FUnaryOp::Rcp, u, x);
        self.refine_reciprocal(x, u)
    }

    /// `fma(fma(-x, u, 1), u, u)`, or `u` where that is NaN.
    fn refine_reciprocal(&mut self, x: FSrc<VReg>, u: VReg) -> VReg {
        let e = self.m.new_group(RegClass::R32);
        self.fmadd(Precision::F32, e, x.negated(), FSrc::reg(u), FSrc::imm(ONE));
        let refined = self.m.new_group(RegClass::R32);
        self.fmadd(
            Precision::F32,
            refined,
            FSrc::reg(e),
            FSrc::reg(u),
            FSrc::reg(u),
        );
        let dst = self.m.new_group(RegClass::R32);
        self.fcmpsel(
            dst,
            FCond::Eq,
            FSrc::reg(refined),
            FSrc::reg(refined),
            Src::reg(refined),
            Src::reg(u),
        );
        dst
    }

    /// `a / b`: quotient through the refined reciprocal plus one residual correction.
    fn divide_float(&mut self, a: FSrc<VReg>, b: FSrc<VReg>, ty: Type) -> VReg {
        let class = class_of(ty);
        if ty == Type::F16 {
            let u = self.m.new_group(RegClass::R32);
            self.funary(FUnaryOp::Rcp, u, b);
            let dst = self.m.new_group(class);
            self.fmul(Precision::F32, dst, a, FSrc::reg(u));
            return dst;
        }
        let u = self.m.new_group(RegClass::R32);
        self.funary(FUnaryOp::Rcp, u, b);
        let r = self.refine_reciprocal(b, u);
        let q = self.m.new_group(RegClass::R32);
        self.fmul(Precision::F32, q, a, FSrc::reg(r));
        let rem = self.m.new_group(RegClass::R32);
        self.fmadd(Precision::F32, rem, b.negated(), FSrc::reg(q), a);
        let corrected = self.m.new_group(RegClass::R32);
        self.fmadd(
            Precision::F32,
            corrected,
            FSrc::reg(rem),
            FSrc::reg(r),
            FSrc::reg(q),
        );
        // A NaN correction comes from an infinite or NaN quotient (b = 0, b = inf, overflow):
        // the first estimate is then the answer.
        let checked = self.m.new_group(RegClass::R32);
        self.fcmpsel(
            checked,
            FCond::Eq,
            FSrc::reg(corrected),
            FSrc::reg(corrected),
            Src::reg(corrected),
            Src::reg(q),
        );
        // A zero estimate is exact (a zero dividend, or an underflow the G13 flushes anyway),
        // but the correction's fused sum of zeros is +0 whatever the quotient's sign
        // (-0 / 3 would give +0): keep the estimate's signed zero.
        let dst = self.m.new_group(RegClass::R32);
        self.fcmpsel(
            dst,
            FCond::Eq,
            FSrc::reg(q),
            FSrc::imm(NEG_ZERO),
            Src::reg(q),
            Src::reg(checked),
        );
        dst
    }

    /// `sin(x)` or `cos(x)` through the sine unit (docs/g13.md, "sin_pt_1 / sin_pt_2").
    fn sine(&mut self, x: FSrc<VReg>, cos: bool, ty: Type) -> VReg {
        let scale = self.imm_reg(RegClass::R32, u64::from(INV_TWO_PI.to_bits()));
        let turns = self.m.new_group(RegClass::R32);
        if cos {
            // The quarter turn goes in the same fused multiply-add.
            let quarter = self.m.new_group(RegClass::R32);
            self.mov_imm(quarter, u64::from(0.25f32.to_bits()));
            self.fmadd(
                Precision::F32,
                turns,
                x,
                FSrc::reg(scale),
                FSrc::reg(quarter),
            );
        } else {
            self.fmul(Precision::F32, turns, x, FSrc::reg(scale));
        }
        let fl = self.m.new_group(RegClass::R32);
        self.funary(FUnaryOp::Floor, fl, FSrc::reg(turns));
        let fr = self.m.new_group(RegClass::R32);
        self.fadd(
            Precision::F32,
            fr,
            FSrc::reg(turns),
            FSrc::reg(fl).negated(),
        );
        let q = self.m.new_group(RegClass::R32);
        self.fmul(Precision::F32, q, FSrc::reg(fr), FSrc::imm(FOUR));
        let y = self.m.new_group(RegClass::R32);
        self.funary(FUnaryOp::SinPt1, y, FSrc::reg(q));
        let s = self.m.new_group(RegClass::R32);
        self.funary(FUnaryOp::SinPt2, s, FSrc::reg(y));
        let dst = self.m.new_group(class_of(ty));
        self.fmul(Precision::F32, dst, FSrc::reg(y), FSrc::reg(s));
        dst
    }

    fn float_compare(&mut self, p: PureOp, a: Value, b: Value, r: Value) {
        use PureOp::*;
        let bits = self.func.value_type(a).bits();
        let (fa, fb) = (self.arith_src(a), self.arith_src(b));
        // (condition, invert) for the comparisons one condition code expresses; docs/g13.md's
        // corrected codes: Ge is 5 and Le 6 (the `FCond` names carry the meaning).
        let single = match p {
            Feq => Some((FCond::Eq, false)),
            Flt => Some((FCond::Lt, false)),
            Fle => Some((FCond::Le, false)),
            Fgt => Some((FCond::Gt, false)),
            Fge => Some((FCond::Ge, false)),
            Fneu => Some((FCond::Eq, true)),
            Fltu => Some((FCond::Ge, true)),
            Fleu => Some((FCond::Gt, true)),
            Fgtu => Some((FCond::Le, true)),
            Fgeu => Some((FCond::Lt, true)),
            _ => None,
        };
        if let Some((cond, invert)) = single {
            let cmp = Cmp::Float { cond, a: fa, b: fb };
            let reg = self.bool_from_cmp(cmp, invert, bits);
            self.set(r, reg);
            self.set_cond(r, CondForm { cmp, invert, bits });
            return;
        }
        // fne (ordered) = a < b || a > b; fequ = !fne.
        let narrow = bits == 16;
        let class = if narrow { RegClass::H16 } else { RegClass::R32 };
        let t = self.m.new_group(class);
        let (hit, miss) = if p == Fne { (1, 0) } else { (0, 1) };
        self.fcmpsel(t, FCond::Lt, fa, fb, Src::Imm(hit), Src::Imm(miss));
        let u = self.m.new_group(class);
        self.fcmpsel(u, FCond::Gt, fa, fb, Src::Imm(hit), Src::reg(t));
        let reg = if narrow {
            let wide = self.m.new_group(RegClass::R32);
            self.mov_src(wide, Src::reg(u));
            wide
        } else {
            u
        };
        self.set(r, reg);
        // A branch on it tests the register.
        self.set_cond(
            r,
            CondForm {
                cmp: Cmp::Int {
                    cond: ICond::Ueq,
                    a: Src::reg(reg),
                    b: Src::Imm(0),
                },
                invert: true,
                bits: 32,
            },
        );
    }

    /// `select cond, x, y`, fusing the comparison when its operand width matches the result's.
    pub(super) fn select(
        &mut self,
        cond: Value,
        x: Value,
        y: Value,
        r: Value,
        ty: Type,
    ) -> Result<(), BackendError> {
        if ty == Type::I64 {
            let dst = self.m.new_group(RegClass::R64);
            let c = self.reg(cond);
            let (xr, yr) = (self.reg(x), self.reg(y));
            for w in 0..2 {
                self.icmpsel(
                    dst.word(w),
                    ICond::Ueq,
                    Src::reg(c),
                    Src::Imm(0),
                    Src::reg(yr.word(w)),
                    Src::reg(xr.word(w)),
                );
            }
            self.set(r, dst);
            return Ok(());
        }
        let class = class_of(ty);
        let bits = if class == RegClass::H16 { 16 } else { 32 };
        let dst = self.m.new_group(class);
        let (xs, ys) = (self.sel_src(x), self.sel_src(y));
        let form = self.cond_form(cond);
        if form.bits == bits {
            let (xs, ys) = if form.invert { (ys, xs) } else { (xs, ys) };
            self.select_cmp(dst, form.cmp, xs, ys);
        } else {
            let c = self.reg(cond);
            let c = if bits == 16 { c.lo16() } else { c };
            self.icmpsel(dst, ICond::Ueq, Src::reg(c), Src::Imm(0), ys, xs);
        }
        self.set(r, dst);
        Ok(())
    }

    /// The G13 target's own operations.
    pub(super) fn custom(&mut self, inst: Inst, op: CustomOp) -> Result<(), BackendError> {
        let data = &self.func.insts[inst];
        let args: Vec<Value> = data.args.to_vec();
        let r = data.results[0];
        let ty = self.func.value_type(r);
        let class = class_of(ty);
        let prec = Self::prec(ty);
        let name = op.name();
        if name == crate::target::divide::URCP.name {
            if ty != Type::I32 {
                return Err(self.unsupported(format!("{name} on {ty}")));
            }
            let d = self.src(args[0]);
            let (z, _) = self.urcp(d);
            self.set(r, z);
            return Ok(());
        }
        if name == crate::target::imadd::IMADD.name {
            let dst = self.m.new_group(class);
            let (a, b, c) = (
                self.int_src(args[0]),
                self.int_src(args[1]),
                self.int_src(args[2]),
            );
            self.m.op(Instr::Imadd {
                dst: crate::isa::Dst::new(dst),
                a,
                b,
                c,
                neg_c: false,
                shift: 0,
                sat: false,
            });
            self.set(r, dst);
            return Ok(());
        }
        let unary = [
            (g13::SIN_PT_1.name, FUnaryOp::SinPt1),
            (g13::SIN_PT_2.name, FUnaryOp::SinPt2),
            (g13::RSQRT_SPECIAL.name, FUnaryOp::RsqrtSpecial),
        ];
        if let Some(&(_, f)) = unary.iter().find(|(n, _)| *n == name) {
            let dst = self.m.new_group(class);
            let a = self.fsrc(args[0]);
            self.funary(f, dst, a);
            self.set(r, dst);
            return Ok(());
        }
        let dst = self.m.new_group(class);
        let d = crate::isa::Dst::new(dst);
        if name == g13::FMADD_SAT.name {
            let (a, b, c) = (self.fsrc(args[0]), self.fsrc(args[1]), self.fsrc(args[2]));
            self.m.op(Instr::Fmadd {
                prec,
                dst: d,
                sat: true,
                a,
                b,
                c,
            });
        } else if name == g13::FADD_SAT.name {
            let (a, b) = (self.fsrc(args[0]), self.fsrc(args[1]));
            self.m.op(Instr::Fadd {
                prec,
                dst: d,
                sat: true,
                a,
                b,
            });
        } else if name == g13::FMUL_SAT.name {
            let (a, b) = (self.fsrc(args[0]), self.fsrc(args[1]));
            self.m.op(Instr::Fmul {
                prec,
                dst: d,
                sat: true,
                a,
                b,
            });
        } else {
            return Err(self.unsupported(format!("target operation {name}")));
        }
        self.set(r, dst);
        Ok(())
    }
}

/// Float operands of arithmetic instructions.
impl Isel<'_> {
    /// A float operand of a 32-bit arithmetic instruction (add, multiply, fused multiply-add,
    /// compare, the unary float family): [`Self::fsrc`], except that an f16 value widened by
    /// `fcvt` is read straight from its half register. The G13's float operations read a 16-bit
    /// source exactly as the f16 it holds (the simulator's `read_float`; Mesa's AGX optimizer
    /// folds `f2f32` into sources the same way), so the widening costs nothing there and dies
    /// when every reader folds it. Only here: moves, texture coordinates and stores need the
    /// 32-bit register itself.
    pub fn arith_src(&self, v: Value) -> FSrc<VReg> {
        let (base, abs, neg) = self.strip_mods(v);
        if self.consts[base].is_none() && self.uniforms[base].is_none() {
            if let Some(h) = self.widened_f16(base) {
                if self.consts[h].is_none() && self.uniforms[h].is_none() {
                    return FSrc {
                        src: Src::reg(self.reg(h)),
                        abs,
                        neg,
                    };
                }
            }
        }
        self.fsrc(v)
    }

    /// The f16 value `v` is the `fcvt` to f32 of, if it is.
    fn widened_f16(&self, v: Value) -> Option<Value> {
        let inst = self.def_inst(v)?;
        let data = &self.func.insts[inst];
        let a = *data.args.first()?;
        (data.op == Op::Pure(PureOp::Fcvt)
            && self.func.value_type(v) == Type::F32
            && self.func.value_type(a) == Type::F16)
            .then_some(a)
    }
}
