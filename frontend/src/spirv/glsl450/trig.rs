//! Inverse trigonometric, hyperbolic, exponential and logarithmic expansions (f32 operands; see
//! the module docs of `glsl450` for their accuracy).

use crate::spirv::context::Lowerer;
use agxc_egraph::ir::{PureOp as P, Type, Value};
use core::f64::consts::{FRAC_PI_2, LN_2, LOG2_E, PI};

/// Coefficients of atan(x) / x as a polynomial in x^2 on [0, 1]: Abramowitz and Stegun,
/// Handbook of Mathematical Functions (1964), formula 4.4.49, |error| <= 2e-8.
const ATAN_COEFFS: [f64; 9] = [
    1.0,
    -0.333_331_452_8,
    0.199_935_508_5,
    -0.142_088_994_4,
    0.106_562_639_3,
    -0.075_289_640_0,
    0.042_909_613_8,
    -0.016_165_736_7,
    0.002_866_225_7,
];

impl<'m> Lowerer<'m> {
    /// atan(r) for r in [0, 1].
    fn atan_unit(&mut self, r: Value) -> Value {
        let r2 = self.p(P::Fmul, &[r, r]);
        let mut acc = self.fk(r, ATAN_COEFFS[8]);
        for &c in ATAN_COEFFS[..8].iter().rev() {
            let k = self.fk(r, c);
            let m = self.p(P::Fmul, &[acc, r2]);
            acc = self.p(P::Fadd, &[m, k]);
        }
        self.p(P::Fmul, &[acc, r])
    }

    /// `a / b` as `a * rcp(b)`: two roundings (within 1.5 ULP of the quotient), where the
    /// result feeds a function with a far looser bound (4096 ULP for atan, the formula's for
    /// tanh and atanh), so the G13 needs no residual correction (`fdiv` costs nine
    /// instructions, this five).
    fn quotient(&mut self, a: Value, b: Value) -> Value {
        let r = self.p(P::Rcp, &[b]);
        self.p(P::Fmul, &[a, r])
    }

    /// `magnitude` (non-negative) with the sign bit of `sign`.
    fn with_sign(&mut self, magnitude: Value, sign: Value) -> Value {
        let s = self.sign_of(sign);
        let mb = self.convert(P::Bitcast, magnitude, Type::I32);
        let sb = self.convert(P::Bitcast, s, Type::I32);
        let bits = self.p(P::Or, &[mb, sb]);
        self.convert(P::Bitcast, bits, Type::F32)
    }

    pub(super) fn atan(&mut self, x: Value) -> Value {
        let a = self.p(P::Fabs, &[x]);
        let one = self.fk(x, 1.0);
        let big = self.p(P::Fgt, &[a, one]);
        let inv = self.p(P::Rcp, &[a]);
        let r = self.p(P::Select, &[big, inv, a]);
        let t = self.atan_unit(r);
        let half_pi = self.fk(x, FRAC_PI_2);
        let folded = self.p(P::Fsub, &[half_pi, t]);
        let m = self.p(P::Select, &[big, folded, t]);
        self.with_sign(m, x)
    }

    pub(super) fn atan2(&mut self, y: Value, x: Value) -> Value {
        let ax = self.p(P::Fabs, &[x]);
        let ay = self.p(P::Fabs, &[y]);
        let mn = self.p(P::Fmin, &[ax, ay]);
        let mx = self.p(P::Fmax, &[ax, ay]);
        let q = self.quotient(mn, mx);
        // Equal magnitudes (including two infinities) are the diagonal; (0, 0) gives 0.
        let zero = self.fk(x, 0.0);
        let one = self.fk(x, 1.0);
        let same = self.p(P::Feq, &[mn, mx]);
        let r = self.p(P::Select, &[same, one, q]);
        let none = self.p(P::Feq, &[mx, zero]);
        let r = self.p(P::Select, &[none, zero, r]);
        let t = self.atan_unit(r);
        let half_pi = self.fk(x, FRAC_PI_2);
        let pi = self.fk(x, PI);
        let steep = self.p(P::Fgt, &[ay, ax]);
        let t2 = self.p(P::Fsub, &[half_pi, t]);
        let t = self.p(P::Select, &[steep, t2, t]);
        let left = self.p(P::Flt, &[x, zero]);
        let t3 = self.p(P::Fsub, &[pi, t]);
        let t = self.p(P::Select, &[left, t3, t]);
        self.with_sign(t, y)
    }

    /// sqrt((1 - x)(1 + x)): 1 - x^2 without cancellation near |x| = 1.
    fn cosine_of_asin(&mut self, x: Value) -> Value {
        let one = self.fk(x, 1.0);
        let a = self.p(P::Fsub, &[one, x]);
        let b = self.p(P::Fadd, &[one, x]);
        let m = self.p(P::Fmul, &[a, b]);
        self.p(P::Sqrt, &[m])
    }

    pub(super) fn asin(&mut self, x: Value) -> Value {
        let c = self.cosine_of_asin(x);
        self.atan2(x, c)
    }

    pub(super) fn acos(&mut self, x: Value) -> Value {
        let s = self.cosine_of_asin(x);
        self.atan2(s, x)
    }

    pub(super) fn exp(&mut self, x: Value) -> Value {
        let k = self.fk(x, LOG2_E);
        let y = self.p(P::Fmul, &[x, k]);
        self.p(P::Exp2, &[y])
    }

    pub(super) fn ln(&mut self, x: Value) -> Value {
        let l = self.p(P::Log2, &[x]);
        let k = self.fk(x, LN_2);
        self.p(P::Fmul, &[l, k])
    }

    /// (e^x - e^-x) / 2 or (e^x + e^-x) / 2.
    pub(super) fn sinh_cosh(&mut self, x: Value, sinh: bool) -> Value {
        let e = self.exp(x);
        let nx = self.p(P::Fneg, &[x]);
        let en = self.exp(nx);
        let s = self.p(if sinh { P::Fsub } else { P::Fadd }, &[e, en]);
        let half = self.fk(x, 0.5);
        self.p(P::Fmul, &[s, half])
    }

    /// (e^2x - 1) / (e^2x + 1), the operand clamped to [-10, 10].
    pub(super) fn tanh(&mut self, x: Value) -> Value {
        let lo = self.fk(x, -10.0);
        let hi = self.fk(x, 10.0);
        let c = self.p(P::Fmax, &[x, lo]);
        let c = self.p(P::Fmin, &[c, hi]);
        let two = self.fk(x, 2.0);
        let d = self.p(P::Fmul, &[c, two]);
        let e = self.exp(d);
        let one = self.fk(x, 1.0);
        let num = self.p(P::Fsub, &[e, one]);
        let den = self.p(P::Fadd, &[e, one]);
        let t = self.quotient(num, den);
        // fmin/fmax dropped a NaN operand; give it back.
        let nan = self.p(P::Fneu, &[x, x]);
        self.p(P::Select, &[nan, x, t])
    }

    /// sign(x) * log(|x| + sqrt(x^2 + 1)).
    pub(super) fn asinh(&mut self, x: Value) -> Value {
        let a = self.p(P::Fabs, &[x]);
        let sq = self.p(P::Fmul, &[a, a]);
        let one = self.fk(x, 1.0);
        let s = self.p(P::Fadd, &[sq, one]);
        let r = self.p(P::Sqrt, &[s]);
        let sum = self.p(P::Fadd, &[a, r]);
        let l = self.ln(sum);
        self.with_sign(l, x)
    }

    /// log(x + sqrt(x^2 - 1)).
    pub(super) fn acosh(&mut self, x: Value) -> Value {
        let sq = self.p(P::Fmul, &[x, x]);
        let one = self.fk(x, 1.0);
        let s = self.p(P::Fsub, &[sq, one]);
        let r = self.p(P::Sqrt, &[s]);
        let sum = self.p(P::Fadd, &[x, r]);
        self.ln(sum)
    }

    /// log((1 + x) / (1 - x)) / 2.
    pub(super) fn atanh(&mut self, x: Value) -> Value {
        let one = self.fk(x, 1.0);
        let num = self.p(P::Fadd, &[one, x]);
        let den = self.p(P::Fsub, &[one, x]);
        let q = self.quotient(num, den);
        let l = self.ln(q);
        let half = self.fk(x, 0.5);
        self.p(P::Fmul, &[l, half])
    }
}
