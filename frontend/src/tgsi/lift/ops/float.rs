//! Float arithmetic: componentwise and replicating opcodes, address loads, derivatives.

use super::super::{Lifter, Want};
use crate::tgsi::error::Result;
use crate::tgsi::opcode::Opcode;
use agxc_egraph::ir::{Axis, DerivPrecision, EffectOp, PureOp, Stage, Type, Value};

const F: Want = Want::F32;

impl Lifter<'_, '_> {
    /// Componentwise float opcodes.
    pub(super) fn float_op(&mut self, op: Opcode) -> Result<()> {
        use Opcode::*;
        use PureOp as P;
        match op {
            ADD => self.componentwise(&[F, F], |l, a| Ok(l.p(P::Fadd, a))),
            SUB => self.componentwise(&[F, F], |l, a| Ok(l.p(P::Fsub, a))),
            MUL => self.componentwise(&[F, F], |l, a| Ok(l.p(P::Fmul, a))),
            DIV => self.componentwise(&[F, F], |l, a| Ok(l.p(P::Fdiv, a))),
            // tgsi_exec uses fminf/fmaxf: a NaN operand yields the other one, as fmin/fmax do.
            MIN => self.componentwise(&[F, F], |l, a| Ok(l.p(P::Fmin, a))),
            MAX => self.componentwise(&[F, F], |l, a| Ok(l.p(P::Fmax, a))),
            MAD => self.componentwise(&[F, F, F], |l, a| {
                let m = l.p(P::Fmul, &a[..2]);
                Ok(l.p(P::Fadd, &[m, a[2]]))
            }),
            FMA => self.componentwise(&[F, F, F], |l, a| Ok(l.p(P::Fma, a))),
            // src0 * (src1 - src2) + src2, in this order (the seed's formula and micro_lrp).
            LRP => self.componentwise(&[F, F, F], |l, a| {
                let d = l.p(P::Fsub, &a[1..]);
                let m = l.p(P::Fmul, &[a[0], d]);
                Ok(l.p(P::Fadd, &[m, a[2]]))
            }),
            FLR => self.componentwise(&[F], |l, a| Ok(l.p(P::Floor, a))),
            CEIL => self.componentwise(&[F], |l, a| Ok(l.p(P::Ceil, a))),
            TRUNC => self.componentwise(&[F], |l, a| Ok(l.p(P::Ftrunc, a))),
            // Mesa's micro_rnd rounds half to even.
            ROUND => self.componentwise(&[F], |l, a| Ok(l.p(P::FroundEven, a))),
            FRC | FRAC => self.componentwise(&[F], |l, a| Ok(l.p(P::Fract, a))),
            ABS => self.componentwise(&[F], |l, a| Ok(l.p(P::Fabs, a))),
            SSG => self.componentwise(&[F], |l, a| Ok(l.sign(a[0]))),
            CMP => self.componentwise(&[F, F, F], |l, a| {
                let zero = l.fc(0.0);
                let neg = l.p(P::Flt, &[a[0], zero]);
                Ok(l.sel(neg, a[1], a[2]))
            }),
            CND => self.componentwise(&[F, F, F], |l, a| {
                let half = l.fc(0.5);
                let c = l.p(P::Fgt, &[a[2], half]);
                Ok(l.sel(c, a[0], a[1]))
            }),
            CLAMP => self.componentwise(&[F, F, F], |l, a| Ok(l.clamp(a[0], a[1], a[2]))),
            SLT => self.set_on(P::Flt),
            SGE => self.set_on(P::Fge),
            SEQ => self.set_on(P::Feq),
            // `!=` is true for NaN operands (micro_sne compares with C's `!=`).
            SNE => self.set_on(P::Fneu),
            SGT => self.set_on(P::Fgt),
            SLE => self.set_on(P::Fle),
            SFL => self.per_channel(|l, _| Ok(l.fc(0.0))),
            STR => self.per_channel(|l, _| Ok(l.fc(1.0))),
            LDEXP => self.componentwise(&[F, Want::I32], |l, a| Ok(l.ldexp(a[0], a[1]))),
            _ => unreachable!("float_op is only dispatched the opcodes above"),
        }
    }

    fn set_on(&mut self, cmp: PureOp) -> Result<()> {
        self.componentwise(&[F, F], |l, a| {
            let c = l.p(cmp, a);
            Ok(l.bool_to_float(c))
        })
    }

    /// `(x > 0) ? 1 : (x < 0) ? -1 : 0`
    pub(super) fn sign(&mut self, x: Value) -> Value {
        let (zero, one, minus_one) = (self.fc(0.0), self.fc(1.0), self.fc(-1.0));
        let neg = self.p(PureOp::Flt, &[x, zero]);
        let inner = self.sel(neg, minus_one, zero);
        let pos = self.p(PureOp::Fgt, &[x, zero]);
        self.sel(pos, one, inner)
    }

    /// The reference's `clamp(x, y, z) = (x < y) ? y : (x > z) ? z : x`.
    pub(super) fn clamp(&mut self, x: Value, lo: Value, hi: Value) -> Value {
        let above = self.p(PureOp::Fgt, &[x, hi]);
        let upper = self.sel(above, hi, x);
        let below = self.p(PureOp::Flt, &[x, lo]);
        self.sel(below, lo, upper)
    }

    /// `x * 2^n` like C's `ldexpf` (Mesa's micro_ldexp), built from exact power-of-two
    /// multiplications: `n` is clamped to ±300 (beyond that every finite float over- or
    /// underflows anyway) and split into three steps of at most ±100, each a normal float.
    /// Only a result in the subnormal range can differ from one correctly rounded step, when
    /// an intermediate product is itself subnormal.
    fn ldexp(&mut self, x: Value, n: Value) -> Value {
        let (lo, hi) = (self.ic(-300), self.ic(300));
        let n = self.p(PureOp::Smax, &[n, lo]);
        let n = self.p(PureOp::Smin, &[n, hi]);
        let three = self.ic(3);
        let a = self.p(PureOp::Sdiv, &[n, three]);
        let two_a = self.p(PureOp::Iadd, &[a, a]);
        let c = self.p(PureOp::Isub, &[n, two_a]);
        let mut v = x;
        for k in [a, a, c] {
            let p = self.pow2(k);
            v = self.p(PureOp::Fmul, &[v, p]);
        }
        v
    }

    /// `2^k` for `k` in [-126, 127], built from its exponent bits.
    fn pow2(&mut self, k: Value) -> Value {
        let (bias, shift) = (self.ic(127), self.ic(23));
        let e = self.p(PureOp::Iadd, &[k, bias]);
        let bits = self.p(PureOp::Ishl, &[e, shift]);
        self.b.convert(PureOp::Bitcast, bits, Type::F32)
    }

    /// Replicating scalar opcodes: one result from the `.x` sources, in every channel.
    pub(super) fn scalar_op(&mut self, op: Opcode) -> Result<()> {
        use Opcode::*;
        use PureOp as P;
        match op {
            RCP => self.replicated(&[F], |l, a| Ok(l.p(P::Rcp, a))),
            // The seed defines RSQ on |src.x| (modern Mesa leaves negative inputs undefined).
            RSQ => self.replicated(&[F], |l, a| {
                let abs = l.p(P::Fabs, a);
                Ok(l.p(P::Rsqrt, &[abs]))
            }),
            SQRT => self.replicated(&[F], |l, a| Ok(l.p(P::Sqrt, a))),
            EX2 => self.replicated(&[F], |l, a| Ok(l.p(P::Exp2, a))),
            LG2 => self.replicated(&[F], |l, a| Ok(l.p(P::Log2, a))),
            POW => self.replicated(&[F, F], |l, a| Ok(l.p(P::Pow, a))),
            // The seed's `dst.w = cos(src.w)` (and sin) is a typo: the opcode replicates its
            // `.x` result like the other scalar opcodes, as Mesa's exec_scalar_unary does.
            COS => self.replicated(&[F], |l, a| Ok(l.p(P::Cos, a))),
            SIN => self.replicated(&[F], |l, a| Ok(l.p(P::Sin, a))),
            _ => unreachable!("scalar_op is only dispatched the opcodes above"),
        }
    }

    /// `ARL` (floor), `ARR` (round half up, Mesa's `floorf(x + 0.5)`), `UARL` (an integer
    /// copy): address-register loads.
    pub(super) fn address_op(&mut self, op: Opcode) -> Result<()> {
        match op {
            Opcode::ARL => self.componentwise(&[F], |l, a| {
                let f = l.p(PureOp::Floor, a);
                Ok(l.b.convert(PureOp::F2s, f, Type::I32))
            }),
            Opcode::ARR => self.componentwise(&[F], |l, a| {
                let half = l.fc(0.5);
                let s = l.p(PureOp::Fadd, &[a[0], half]);
                let f = l.p(PureOp::Floor, &[s]);
                Ok(l.b.convert(PureOp::F2s, f, Type::I32))
            }),
            _ => self.componentwise(&[Want::I32], |_, a| Ok(a[0])),
        }
    }

    /// `DDX`, `DDY` and their `_FINE` forms. The plain forms are coarse: the reference allows
    /// one value per quad, Mesa compiles GLSL's `dFdxCoarse` to `DDX`, and softpipe computes
    /// it from the quad's top row (left column for `DDY`).
    pub(super) fn derivative(&mut self, op: Opcode) -> Result<()> {
        if self.stage != Stage::Fragment {
            return Err(self.unsupported("derivatives outside fragment shaders"));
        }
        let (axis, precision) = match op {
            Opcode::DDX => (Axis::X, DerivPrecision::Coarse),
            Opcode::DDY => (Axis::Y, DerivPrecision::Coarse),
            Opcode::DDX_FINE => (Axis::X, DerivPrecision::Fine),
            _ => (Axis::Y, DerivPrecision::Fine),
        };
        self.componentwise(&[F], |l, a| {
            Ok(l.b.effect(EffectOp::Derivative(axis, precision), a, &[Type::F32])[0])
        })
    }
}
