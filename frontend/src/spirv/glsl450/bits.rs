//! Exponent manipulation and packing (`Frexp`, `Ldexp`, `Pack*`, `Unpack*`), on the bits of
//! IEEE binary32: sign 1 bit, exponent 8 bits biased by 127, fraction 23 bits.

use super::Comps;
use crate::spirv::context::Lowerer;
use crate::spirv::error::SpirvError;
use crate::spirv::module::Inst;
use crate::spirv::value::Agg;
use agxc_egraph::ir::{PureOp as P, Type, Value};
use spirv::GlslStd450Op as G;

impl<'m> Lowerer<'m> {
    /// Splits an f32 into a significand in [0.5, 1) (same sign) and an exponent; zero, infinity
    /// and NaN give themselves and exponent 0.
    fn frexp_f32(&mut self, x: Value) -> (Value, Value) {
        let i32_ = Type::I32;
        let bits = self.convert(P::Bitcast, x, i32_);
        let (k23, k8) = (self.iconst(i32_, 23), self.iconst(i32_, 8));
        let biased = self.p(P::Ubfe, &[bits, k23, k8]);
        let zero_i = self.zero(i32_);
        let denormal = self.p(P::Ieq, &[biased, zero_i]);
        // Denormals: scale into the normal range first and correct the exponent.
        let scale = self.fconst(Type::F32, 2f64.powi(32));
        let scaled = self.p(P::Fmul, &[x, scale]);
        let xs = self.p(P::Select, &[denormal, scaled, x]);
        let bits = self.convert(P::Bitcast, xs, i32_);
        let biased = self.p(P::Ubfe, &[bits, k23, k8]);
        let (k126, k158) = (self.iconst(i32_, 126), self.iconst(i32_, 158));
        let bias = self.p(P::Select, &[denormal, k158, k126]);
        let exp = self.p(P::Isub, &[biased, bias]);
        let keep = self.iconst(i32_, 0x807f_ffff);
        let half_exp = self.iconst(i32_, 0x3f00_0000);
        let m = self.p(P::And, &[bits, keep]);
        let m = self.p(P::Or, &[m, half_exp]);
        let mant = self.convert(P::Bitcast, m, Type::F32);
        // Zero, infinity and NaN.
        let zero_f = self.zero(Type::F32);
        let is_zero = self.p(P::Feq, &[x, zero_f]);
        let k255 = self.iconst(i32_, 255);
        let orig = self.convert(P::Bitcast, x, i32_);
        let orig_biased = self.p(P::Ubfe, &[orig, k23, k8]);
        let special = self.p(P::Ieq, &[orig_biased, k255]);
        let passthrough = self.p(P::Or, &[is_zero, special]);
        let mant = self.p(P::Select, &[passthrough, x, mant]);
        let exp = self.p(P::Select, &[passthrough, zero_i, exp]);
        (mant, exp)
    }

    /// `Frexp` (exponent through a pointer) and `FrexpStruct`.
    pub(super) fn frexp(&mut self, inst: &Inst, as_struct: bool) -> Result<(), SpirvError> {
        let x = self.operand_components(inst, 2)?;
        let exp_ty = if as_struct {
            let members = self.types.children(inst.result_ty()?, inst)?;
            let ty = *members
                .get(1)
                .ok_or_else(|| inst.mismatch("FrexpStruct result is not a pair"))?;
            self.types.components(ty, inst)?.0
        } else {
            if inst.operands.len() != 4 {
                return Err(inst.invalid("Frexp expects a value and a pointer"));
            }
            let ptr = self.operand_pointer(inst, 3)?;
            self.types.components(ptr.pointee(), inst)?.0
        };
        if !exp_ty.is_int() {
            return Err(inst.mismatch("the exponent is not an integer"));
        }
        let (mut mants, mut exps) = (Vec::new(), Vec::new());
        for &v in &x {
            let ty = self.float_args(inst, &[v])?;
            let wide = if ty == Type::F32 {
                v
            } else {
                self.convert(P::Fcvt, v, Type::F32)
            };
            let (m, e) = self.frexp_f32(wide);
            mants.push(if ty == Type::F32 {
                m
            } else {
                self.convert(P::Fcvt, m, ty)
            });
            exps.push(self.int_resize(inst, e, exp_ty, true)?);
        }
        let vector = x.len() > 1;
        let wrap = |v: Vec<Value>| {
            if vector {
                Agg::vector(v)
            } else {
                Agg::Scalar(v[0])
            }
        };
        if as_struct {
            return self.bind_checked(inst, Agg::composite(vec![wrap(mants), wrap(exps)]));
        }
        let ptr = self.operand_pointer(inst, 3)?;
        self.store(inst, &ptr, wrap(exps))?;
        self.bind_components(inst, &mants)
    }

    /// 2^e as an f32, for e in [-126, 127].
    fn pow2(&mut self, e: Value) -> Value {
        let k127 = self.iconst(Type::I32, 127);
        let k23 = self.iconst(Type::I32, 23);
        let biased = self.p(P::Iadd, &[e, k127]);
        let bits = self.p(P::Ishl, &[biased, k23]);
        self.convert(P::Bitcast, bits, Type::F32)
    }

    /// `Ldexp(x, e)`: x * 2^e, as two exact power-of-two factors.
    pub(super) fn ldexp(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let x = self.operand_components(inst, 2)?;
        let e = self.operand_components(inst, 3)?;
        if x.len() != e.len() {
            return Err(inst.mismatch("operands have different component counts"));
        }
        let mut out = Vec::new();
        for (&v, &n) in x.iter().zip(&e) {
            let ty = self.float_args(inst, &[v])?;
            let n = self.int_resize(inst, n, Type::I32, true)?;
            let wide = if ty == Type::F32 {
                v
            } else {
                self.convert(P::Fcvt, v, Type::F32)
            };
            let (lo, hi) = (self.iconst(Type::I32, -252), self.iconst(Type::I32, 254));
            let n = self.p(P::Smax, &[n, lo]);
            let n = self.p(P::Smin, &[n, hi]);
            let one = self.iconst(Type::I32, 1);
            let half = self.p(P::Sshr, &[n, one]);
            let rest = self.p(P::Isub, &[n, half]);
            let f1 = self.pow2(half);
            let f2 = self.pow2(rest);
            let r = self.p(P::Fmul, &[wide, f1]);
            let r = self.p(P::Fmul, &[r, f2]);
            out.push(if ty == Type::F32 {
                r
            } else {
                self.convert(P::Fcvt, r, ty)
            });
        }
        self.bind_components(inst, &out)
    }

    /// `Pack*`: floats into one 32-bit integer, component 0 in the low bits.
    pub(super) fn pack(&mut self, inst: &Inst, op: G) -> Result<(), SpirvError> {
        let v: Comps = self.operand_components(inst, 2)?;
        let (count, bits) = match op {
            G::PackSnorm4x8 | G::PackUnorm4x8 => (4, 8),
            _ => (2, 16),
        };
        if v.len() != count || v.iter().any(|&c| self.ty(c) != Type::F32) {
            return Err(inst.mismatch(format!("expects a vector of {count} f32")));
        }
        let i32_ = Type::I32;
        let mask = self.iconst(i32_, (1i64 << bits) - 1);
        let mut word = self.zero(i32_);
        for (i, &c) in v.iter().enumerate() {
            let field = match op {
                G::PackHalf2x16 => {
                    let h = self.convert(P::Fcvt, c, Type::F16);
                    let hb = self.convert(P::Bitcast, h, Type::I16);
                    self.convert(P::Uext, hb, i32_)
                }
                G::PackSnorm4x8 | G::PackSnorm2x16 => {
                    let scale = if bits == 8 { 127.0 } else { 32767.0 };
                    let (lo, hi) = (self.fconst(Type::F32, -1.0), self.fconst(Type::F32, 1.0));
                    let cl = self.p(P::Fmax, &[c, lo]);
                    let cl = self.p(P::Fmin, &[cl, hi]);
                    let k = self.fconst(Type::F32, scale);
                    let s = self.p(P::Fmul, &[cl, k]);
                    let r = self.p(P::FroundEven, &[s]);
                    let n = self.convert(P::F2s, r, i32_);
                    self.p(P::And, &[n, mask])
                }
                _ => {
                    let scale = if bits == 8 { 255.0 } else { 65535.0 };
                    let cl = self.p(P::Fsat, &[c]);
                    let k = self.fconst(Type::F32, scale);
                    let s = self.p(P::Fmul, &[cl, k]);
                    let r = self.p(P::FroundEven, &[s]);
                    self.convert(P::F2u, r, i32_)
                }
            };
            let sh = self.iconst(i32_, (i * bits) as i64);
            let placed = self.p(P::Ishl, &[field, sh]);
            word = self.p(P::Or, &[word, placed]);
        }
        if self.result_scalar(inst)? != i32_ {
            return Err(inst.mismatch("pack result is not a 32-bit integer"));
        }
        self.bind_components(inst, &[word])
    }

    /// `Unpack*`: one 32-bit integer into floats.
    pub(super) fn unpack(&mut self, inst: &Inst, op: G) -> Result<(), SpirvError> {
        let p = self.operand_scalar(inst, 2)?;
        let i32_ = Type::I32;
        if self.ty(p) != i32_ {
            return Err(inst.mismatch("expects a 32-bit integer"));
        }
        let (count, bits) = match op {
            G::UnpackSnorm4x8 | G::UnpackUnorm4x8 => (4, 8),
            _ => (2, 16),
        };
        let width = self.iconst(i32_, bits as i64);
        let mut out = Vec::new();
        for i in 0..count {
            let at = self.iconst(i32_, (i * bits) as i64);
            let f = match op {
                G::UnpackHalf2x16 => {
                    let field = self.p(P::Ushr, &[p, at]);
                    let h = self.convert(P::Itrunc, field, Type::I16);
                    let h = self.convert(P::Bitcast, h, Type::F16);
                    self.convert(P::Fcvt, h, Type::F32)
                }
                G::UnpackSnorm4x8 | G::UnpackSnorm2x16 => {
                    let field = self.p(P::Sbfe, &[p, at, width]);
                    let f = self.convert(P::S2f, field, Type::F32);
                    let k = self.fconst(Type::F32, if bits == 8 { 127.0 } else { 32767.0 });
                    let q = self.p(P::Fdiv, &[f, k]);
                    let lo = self.fconst(Type::F32, -1.0);
                    self.p(P::Fmax, &[q, lo])
                }
                _ => {
                    let field = self.p(P::Ubfe, &[p, at, width]);
                    let f = self.convert(P::U2f, field, Type::F32);
                    let k = self.fconst(Type::F32, if bits == 8 { 255.0 } else { 65535.0 });
                    self.p(P::Fdiv, &[f, k])
                }
            };
            out.push(f);
        }
        self.bind_components(inst, &out)
    }
}
