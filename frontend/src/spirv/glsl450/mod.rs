//! The GLSL.std.450 extended instruction set (Khronos, "GLSL.std.450", version 1.00 revision
//! 13), every member expanded into IR operations.
//!
//! # Semantics and accuracy
//! - `Round` rounds halves to even (the specification lets the implementation choose).
//! - `FMin`/`FMax`/`FClamp` use the IR's `fmin`/`fmax`, which return the non-NaN operand; that is
//!   one of the results the specification allows for NaN, and exactly what `NMin`/`NMax`/
//!   `NClamp` require.
//! - `FMix` is `x * (1 - a) + y * a` (so `a == 1` gives exactly `y`); `Step` is `x < edge ? 0 : 1`;
//!   `SmoothStep` is `t * t * (3 - 2 t)` with `t = clamp((x - e0) / (e1 - e0), 0, 1)`.
//! - `Exp(x) = exp2(x * log2 e)` and `Log(x) = log2(x) * ln 2`: within Vulkan's `3 + 2|x|` ULP
//!   and `3` ULP (absolute `2^-21` in [0.5, 2]) bounds, which are stated for these formulas.
//! - `Tan`, the hyperbolic functions and their inverses use the formulas Vulkan's precision
//!   table inherits their accuracy from (`sin/cos`, `(e^x - e^-x) / 2`, `log(x + sqrt(x^2 + 1))`,
//!   ...); `Tanh` clamps its operand to [-10, 10] first (tanh(10) rounds to 1 in f32) so that it
//!   never computes inf/inf.
//! - `Atan`, `Atan2`, `Asin`, `Acos` reduce to atan on [0, 1] (`atan(x) = pi/2 - atan(1/x)`,
//!   octant folding for `Atan2`, `asin(x) = atan2(x, sqrt((1-x)(1+x)))`) and evaluate the minimax
//!   polynomial of Abramowitz and Stegun, Handbook of Mathematical Functions, formula 4.4.49
//!   (absolute error below 2e-8 on [0, 1]); the f32 result is within a few ULP, far inside
//!   Vulkan's 4096-ULP bound.
//! - 16-bit operands of these expansions are computed in f32 and rounded back.
//! - `Frexp`/`Ldexp` work on the exponent bits (denormal operands are scaled by 2^32 first);
//!   `Ldexp` clamps the exponent to [-252, 254] and multiplies by two powers of two, so it is
//!   exact except for a denormal `x` with an exponent beyond 254 (beyond the clamp).
//! - Packing rounds to nearest even after clamping; unpacking divides by 127, 255, 32767 or
//!   65535 as the specification states.
//! - `InterpolateAtCentroid` and `InterpolateAtSample` read the input at the pixel centre, which
//!   is where both are at one sample per pixel (the only mode here). `InterpolateAtOffset` adds
//!   the fine screen-space derivatives times the offset: exact for inputs linear in screen space.
//! - `IMix` (removed from the specification), `PackDouble2x32` and `UnpackDouble2x32` (64-bit
//!   floats) are rejected.

mod bits;
mod geometry;
mod trig;

use super::context::Lowerer;
use super::error::SpirvError;
use super::module::Inst;
use super::value::Agg;
use agxc_egraph::ir::{PureOp, Type, Value};
use smallvec::SmallVec;
use spirv::GlslStd450Op as G;

pub(crate) type Comps = SmallVec<[Value; 4]>;

impl<'m> Lowerer<'m> {
    /// The component lists of the instruction's `n` operands (after the set and the number).
    fn glsl_args(&mut self, inst: &Inst, n: usize) -> Result<Vec<Comps>, SpirvError> {
        if inst.operands.len() != 2 + n {
            return Err(inst.invalid(format!("expects {n} operands")));
        }
        (0..n)
            .map(|i| self.operand_components(inst, 2 + i))
            .collect()
    }

    /// Applies `f` component-wise to `n` operands of the same size (a scalar operand is used for
    /// every component).
    fn glsl_map(
        &mut self,
        inst: &Inst,
        n: usize,
        mut f: impl FnMut(&mut Self, &[Value]) -> Result<Value, SpirvError>,
    ) -> Result<(), SpirvError> {
        let args = self.glsl_args(inst, n)?;
        let width = args.iter().map(|a| a.len()).max().unwrap_or(0);
        if args.iter().any(|a| a.len() != width && a.len() != 1) {
            return Err(inst.mismatch("operands have different component counts"));
        }
        let mut out = Vec::with_capacity(width);
        for c in 0..width {
            let xs: SmallVec<[Value; 4]> = args
                .iter()
                .map(|a| if a.len() == 1 { a[0] } else { a[c] })
                .collect();
            out.push(f(self, &xs)?);
        }
        self.bind_components(inst, &out)
    }

    /// Checks that operands are floats of one type; returns it.
    fn float_args(&self, inst: &Inst, xs: &[Value]) -> Result<Type, SpirvError> {
        let ty = self.ty(xs[0]);
        if !ty.is_float() || xs.iter().any(|&x| self.ty(x) != ty) {
            return Err(inst.mismatch("expects float operands of one type"));
        }
        Ok(ty)
    }

    fn int_args(&self, inst: &Inst, xs: &[Value]) -> Result<Type, SpirvError> {
        let ty = self.ty(xs[0]);
        if !ty.is_int() || xs.iter().any(|&x| self.ty(x) != ty) {
            return Err(inst.mismatch("expects integer operands of one type"));
        }
        Ok(ty)
    }

    fn float_op(&mut self, inst: &Inst, n: usize, op: PureOp) -> Result<(), SpirvError> {
        self.glsl_map(inst, n, |s, xs| {
            s.float_args(inst, xs)?;
            Ok(s.pure(op, xs))
        })
    }

    fn int_op(&mut self, inst: &Inst, n: usize, op: PureOp) -> Result<(), SpirvError> {
        self.glsl_map(inst, n, |s, xs| {
            s.int_args(inst, xs)?;
            Ok(s.pure(op, xs))
        })
    }

    /// A float expansion computed in f32 even for f16 operands.
    fn float_fn(
        &mut self,
        inst: &Inst,
        n: usize,
        f: impl Fn(&mut Self, &[Value]) -> Value,
    ) -> Result<(), SpirvError> {
        self.glsl_map(inst, n, |s, xs| {
            let ty = s.float_args(inst, xs)?;
            Ok(s.in_f32(ty, xs, &f))
        })
    }

    /// Runs `f` on the operands widened to f32 and narrows the result back to `ty`.
    pub(crate) fn in_f32(
        &mut self,
        ty: Type,
        xs: &[Value],
        f: &impl Fn(&mut Self, &[Value]) -> Value,
    ) -> Value {
        if ty == Type::F32 {
            return f(self, xs);
        }
        let wide: Vec<Value> = xs
            .iter()
            .map(|&x| self.convert(PureOp::Fcvt, x, Type::F32))
            .collect();
        let r = f(self, &wide);
        self.convert(PureOp::Fcvt, r, ty)
    }

    /// A float constant of the type of `like`.
    pub(crate) fn fk(&mut self, like: Value, v: f64) -> Value {
        let ty = self.ty(like);
        self.fconst(ty, v)
    }

    pub(crate) fn p(&mut self, op: PureOp, args: &[Value]) -> Value {
        self.pure(op, args)
    }

    /// Lifts an `OpExtInst` of GLSL.std.450.
    pub fn lower_glsl(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        use PureOp as P;
        let number = inst.literal(1)?;
        let op = G::from_u32(number)
            .ok_or_else(|| inst.invalid(format!("unknown GLSL.std.450 instruction {number}")))?;
        match op {
            G::Round | G::RoundEven => self.float_op(inst, 1, P::FroundEven),
            G::Trunc => self.float_op(inst, 1, P::Ftrunc),
            G::FAbs => self.float_op(inst, 1, P::Fabs),
            G::SAbs => self.int_op(inst, 1, P::Iabs),
            G::FSign => self.glsl_map(inst, 1, |s, xs| {
                s.float_args(inst, xs)?;
                let x = xs[0];
                let (zero, one, minus) = (s.fk(x, 0.0), s.fk(x, 1.0), s.fk(x, -1.0));
                let pos = s.p(P::Fgt, &[x, zero]);
                let neg = s.p(P::Flt, &[x, zero]);
                // Zeros (and NaN) give the operand itself.
                let r = s.p(P::Select, &[neg, minus, x]);
                Ok(s.p(P::Select, &[pos, one, r]))
            }),
            G::SSign => self.glsl_map(inst, 1, |s, xs| {
                let ty = s.int_args(inst, xs)?;
                let (lo, hi) = (s.iconst(ty, -1), s.iconst(ty, 1));
                let a = s.p(P::Smax, &[xs[0], lo]);
                Ok(s.p(P::Smin, &[a, hi]))
            }),
            G::Floor => self.float_op(inst, 1, P::Floor),
            G::Ceil => self.float_op(inst, 1, P::Ceil),
            G::Fract => self.float_op(inst, 1, P::Fract),
            G::Radians | G::Degrees => {
                let k = if op == G::Radians {
                    core::f64::consts::PI / 180.0
                } else {
                    180.0 / core::f64::consts::PI
                };
                self.glsl_map(inst, 1, |s, xs| {
                    s.float_args(inst, xs)?;
                    let c = s.fk(xs[0], k);
                    Ok(s.p(P::Fmul, &[xs[0], c]))
                })
            }
            G::Sin => self.float_op(inst, 1, P::Sin),
            G::Cos => self.float_op(inst, 1, P::Cos),
            G::Tan => self.float_fn(inst, 1, |s, xs| {
                let sin = s.p(P::Sin, &[xs[0]]);
                let cos = s.p(P::Cos, &[xs[0]]);
                // Vulkan derives tan's precision from sin(x) / cos(x); the G13's sine unit is
                // far coarser than the division's rounding, so `sin * rcp(cos)` (trig.rs).
                let r = s.p(P::Rcp, &[cos]);
                s.p(P::Fmul, &[sin, r])
            }),
            G::Asin => self.float_fn(inst, 1, |s, xs| s.asin(xs[0])),
            G::Acos => self.float_fn(inst, 1, |s, xs| s.acos(xs[0])),
            G::Atan => self.float_fn(inst, 1, |s, xs| s.atan(xs[0])),
            G::Atan2 => self.float_fn(inst, 2, |s, xs| s.atan2(xs[0], xs[1])),
            G::Sinh => self.float_fn(inst, 1, |s, xs| s.sinh_cosh(xs[0], true)),
            G::Cosh => self.float_fn(inst, 1, |s, xs| s.sinh_cosh(xs[0], false)),
            G::Tanh => self.float_fn(inst, 1, |s, xs| s.tanh(xs[0])),
            G::Asinh => self.float_fn(inst, 1, |s, xs| s.asinh(xs[0])),
            G::Acosh => self.float_fn(inst, 1, |s, xs| s.acosh(xs[0])),
            G::Atanh => self.float_fn(inst, 1, |s, xs| s.atanh(xs[0])),
            G::Pow => self.float_op(inst, 2, P::Pow),
            G::Exp => self.float_fn(inst, 1, |s, xs| s.exp(xs[0])),
            G::Log => self.float_fn(inst, 1, |s, xs| s.ln(xs[0])),
            G::Exp2 => self.float_op(inst, 1, P::Exp2),
            G::Log2 => self.float_op(inst, 1, P::Log2),
            G::Sqrt => self.float_op(inst, 1, P::Sqrt),
            G::InverseSqrt => self.float_op(inst, 1, P::Rsqrt),
            G::Determinant => self.determinant(inst),
            G::MatrixInverse => self.matrix_inverse(inst),
            G::Modf | G::ModfStruct => self.modf(inst, op == G::ModfStruct),
            G::FMin | G::NMin => self.float_op(inst, 2, P::Fmin),
            G::FMax | G::NMax => self.float_op(inst, 2, P::Fmax),
            G::UMin => self.int_op(inst, 2, P::Umin),
            G::SMin => self.int_op(inst, 2, P::Smin),
            G::UMax => self.int_op(inst, 2, P::Umax),
            G::SMax => self.int_op(inst, 2, P::Smax),
            G::FClamp | G::NClamp => self.glsl_map(inst, 3, |s, xs| {
                s.float_args(inst, xs)?;
                let lo = s.p(P::Fmax, &[xs[0], xs[1]]);
                Ok(s.p(P::Fmin, &[lo, xs[2]]))
            }),
            G::UClamp | G::SClamp => {
                let (max, min) = if op == G::UClamp {
                    (P::Umax, P::Umin)
                } else {
                    (P::Smax, P::Smin)
                };
                self.glsl_map(inst, 3, |s, xs| {
                    s.int_args(inst, xs)?;
                    let lo = s.p(max, &[xs[0], xs[1]]);
                    Ok(s.p(min, &[lo, xs[2]]))
                })
            }
            G::FMix => self.glsl_map(inst, 3, |s, xs| {
                s.float_args(inst, xs)?;
                let (x, y, a) = (xs[0], xs[1], xs[2]);
                let one = s.fk(x, 1.0);
                let inv = s.p(P::Fsub, &[one, a]);
                let l = s.p(P::Fmul, &[x, inv]);
                let r = s.p(P::Fmul, &[y, a]);
                Ok(s.p(P::Fadd, &[l, r]))
            }),
            G::Step => self.glsl_map(inst, 2, |s, xs| {
                s.float_args(inst, xs)?;
                let (edge, x) = (xs[0], xs[1]);
                let below = s.p(P::Flt, &[x, edge]);
                let (zero, one) = (s.fk(x, 0.0), s.fk(x, 1.0));
                Ok(s.p(P::Select, &[below, zero, one]))
            }),
            G::SmoothStep => self.glsl_map(inst, 3, |s, xs| {
                s.float_args(inst, xs)?;
                let (e0, e1, x) = (xs[0], xs[1], xs[2]);
                let num = s.p(P::Fsub, &[x, e0]);
                let den = s.p(P::Fsub, &[e1, e0]);
                let q = s.p(P::Fdiv, &[num, den]);
                let t = s.p(P::Fsat, &[q]);
                let (two, three) = (s.fk(x, 2.0), s.fk(x, 3.0));
                let tt = s.p(P::Fmul, &[t, t]);
                let twice = s.p(P::Fmul, &[two, t]);
                let poly = s.p(P::Fsub, &[three, twice]);
                Ok(s.p(P::Fmul, &[tt, poly]))
            }),
            G::Fma => self.float_op(inst, 3, P::Fma),
            G::Frexp | G::FrexpStruct => self.frexp(inst, op == G::FrexpStruct),
            G::Ldexp => self.ldexp(inst),
            G::PackSnorm4x8
            | G::PackUnorm4x8
            | G::PackSnorm2x16
            | G::PackUnorm2x16
            | G::PackHalf2x16 => self.pack(inst, op),
            G::UnpackSnorm4x8
            | G::UnpackUnorm4x8
            | G::UnpackSnorm2x16
            | G::UnpackUnorm2x16
            | G::UnpackHalf2x16 => self.unpack(inst, op),
            G::Length => self.length(inst),
            G::Distance => self.distance(inst),
            G::Cross => self.cross(inst),
            G::Normalize => self.normalize(inst),
            G::FaceForward => self.face_forward(inst),
            G::Reflect => self.reflect(inst),
            G::Refract => self.refract(inst),
            G::FindILsb => self.int_op(inst, 1, P::FindLsb),
            G::FindSMsb => self.int_op(inst, 1, P::SfindMsb),
            G::FindUMsb => self.int_op(inst, 1, P::UfindMsb),
            G::InterpolateAtCentroid | G::InterpolateAtSample | G::InterpolateAtOffset => {
                self.interpolate(inst, op == G::InterpolateAtOffset)
            }
            G::IMix | G::PackDouble2x32 | G::UnpackDouble2x32 => {
                Err(inst.unsupported(format!("GLSL.std.450 {op:?}")))
            }
        }
    }

    /// `Modf` (whole part through a pointer) and `ModfStruct`.
    fn modf(&mut self, inst: &Inst, as_struct: bool) -> Result<(), SpirvError> {
        let x = self.operand_components(inst, 2)?;
        let (mut fracs, mut wholes) = (Vec::new(), Vec::new());
        for &v in &x {
            let ty = self.float_args(inst, &[v])?;
            let whole = self.p(PureOp::Ftrunc, &[v]);
            let diff = self.p(PureOp::Fsub, &[v, whole]);
            // modf(+-inf) has a zero fraction of the operand's sign (not inf - inf).
            let mag = self.p(PureOp::Fabs, &[v]);
            let inf = self.fconst(ty, f64::INFINITY);
            let is_inf = self.p(PureOp::Feq, &[mag, inf]);
            let signed_zero = self.sign_of(v);
            fracs.push(self.p(PureOp::Select, &[is_inf, signed_zero, diff]));
            wholes.push(whole);
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
            let value = Agg::composite(vec![wrap(fracs), wrap(wholes)]);
            return self.bind_checked(inst, value);
        }
        if inst.operands.len() != 4 {
            return Err(inst.invalid("Modf expects a value and a pointer"));
        }
        let ptr = self.operand_pointer(inst, 3)?;
        self.store(inst, &ptr, wrap(wholes))?;
        self.bind_components(inst, &fracs)
    }

    /// A zero carrying the sign of `x`.
    pub(crate) fn sign_of(&mut self, x: Value) -> Value {
        let ty = self.ty(x);
        let int = if ty == Type::F16 {
            Type::I16
        } else {
            Type::I32
        };
        let bits = self.convert(PureOp::Bitcast, x, int);
        let mask = self.iconst(int, 1i64 << (ty.bits() - 1));
        let sign = self.p(PureOp::And, &[bits, mask]);
        self.convert(PureOp::Bitcast, sign, ty)
    }

    /// `InterpolateAt*`: the input at the pixel centre, plus derivatives times an offset.
    fn interpolate(&mut self, inst: &Inst, offset: bool) -> Result<(), SpirvError> {
        use agxc_egraph::ir::{Axis, DerivPrecision, EffectOp, Stage};
        if self.stage != Stage::Fragment {
            return Err(inst.invalid("interpolation functions outside a fragment shader"));
        }
        let ptr = self.operand_pointer(inst, 2)?;
        let value = self.load(inst, &ptr)?;
        let comps = value
            .components()
            .ok_or_else(|| inst.mismatch("interpolant is not a scalar or vector"))?;
        if !offset {
            return self.bind_components(inst, &comps);
        }
        let off = self.operand_components(inst, 3)?;
        if off.len() != 2 {
            return Err(inst.mismatch("the offset is not a 2-component vector"));
        }
        let mut out = Vec::new();
        for &v in &comps {
            let ty = self.float_args(inst, &[v])?;
            let mut terms = Vec::new();
            for (axis, &o) in [Axis::X, Axis::Y].into_iter().zip(&off) {
                let d = self.effect(
                    EffectOp::Derivative(axis, DerivPrecision::Fine),
                    &[v],
                    &[ty],
                )[0];
                let o = if self.ty(o) == ty {
                    o
                } else {
                    self.convert(PureOp::Fcvt, o, ty)
                };
                terms.push(self.p(PureOp::Fmul, &[d, o]));
            }
            let a = self.p(PureOp::Fadd, &[v, terms[0]]);
            out.push(self.p(PureOp::Fadd, &[a, terms[1]]));
        }
        self.bind_components(inst, &out)
    }
}
