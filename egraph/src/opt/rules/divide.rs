//! Integer division and remainder by constants, as multiplications and shifts.
//!
//! No GPU has an integer divider; a division by a variable is a reciprocal sequence of a dozen
//! instructions (see the G13 backend). By a constant it is much cheaper:
//!
//! - unsigned by `2^k`: a shift (`udiv-pow2`, [`super::strength`]); signed by `±2^k`: a shift of
//!   the dividend biased by `2^k - 1` when negative, so the quotient rounds toward zero;
//! - unsigned by another `d`: Granlund and Montgomery's method ("Division by Invariant Integers
//!   using Multiplication", PLDI 1994, Theorem 4.2): with `m = ceil(2^p / d)` and
//!   `2^p <= m d <= 2^p + 2^(p-N)`, `floor(x / d) = floor(m x / 2^p)` for every N-bit `x`, so
//!   `q = umulhi(x, m) >> (p - N)` when `m` fits N bits; when it needs N + 1 bits (`m = 2^N +
//!   m'`) the quotient is `(t + ((x - t) >> 1)) >> (l - 1)` with `t = umulhi(x, m')` and
//!   `l = ceil(log2 d)`, which adds the `2^N x` term without overflowing; an even `d = 2^k d'`
//!   may instead shift `x` right by `k` first, leaving a shorter dividend whose magic fits;
//! - signed by another `d`: the signed variant (Granlund and Montgomery, section 5; the
//!   algorithm as Warren's "Hacker's Delight", 2nd ed., section 10-6 gives it):
//!   `q = smulhi(x, M)`, plus `x` when `d > 0` and `M < 0`, minus `x` when `d < 0` and `M > 0`,
//!   shifted right arithmetically by `s`, plus 1 when negative (its sign bit);
//! - remainders: `x - (x / d) * d`, whose division then lowers as above.
//!
//! Every form computes the IR's quotient exactly (truncating; `MIN / -1` wraps), checked on
//! random inputs by the soundness checker and exhaustively for 16 bits by this module's tests.
//! The guards compute the constants from `?c` for 16- and 32-bit types; 64-bit division is left
//! to the backend.

use super::{Bindings, RuleSpec};
use crate::ir::{Const, PureOp, Type};
use crate::opt::language::Kind;
use crate::opt::term::Term;

/// An unsigned division by a constant as multiplications and shifts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnsignedMagic {
    /// `umulhi(x, m) >> s`.
    Mul {
        /// The multiplier, below `2^N`.
        m: u64,
        /// The shift.
        s: u32,
    },
    /// `umulhi(x >> k, m) >> s`.
    PreShift {
        /// The first shift.
        k: u32,
        /// The multiplier, below `2^N`.
        m: u64,
        /// The final shift.
        s: u32,
    },
    /// `(t + ((x - t) >> 1)) >> s` with `t = umulhi(x, m)` (an N + 1-bit multiplier `2^N + m`).
    Add {
        /// The multiplier's low N bits.
        m: u64,
        /// The final shift (`ceil(log2 d) - 1`).
        s: u32,
    },
}

/// The smallest `p >= n` (up to `2n`) for which `m = ceil(2^p / d)` satisfies Granlund and
/// Montgomery's bound for `bits`-bit dividends and fits `n` bits: `(m, p - n)`.
fn fitting_multiplier(d: u64, n: u32, bits: u32) -> Option<(u64, u32)> {
    let d = u128::from(d);
    for p in n..=2 * n {
        let two_p = 1u128 << p;
        let m = two_p.div_ceil(d);
        if m >= 1u128 << n {
            continue;
        }
        let err = m * d - two_p;
        if p >= bits && err <= 1u128 << (p - bits) {
            return Some((m as u64, p - n));
        }
    }
    None
}

/// The cheapest multiply-and-shift form of `x / d` for `n`-bit unsigned `x`, for `d` not a power
/// of two, `1 < d < 2^n`.
pub fn unsigned_magic(d: u64, n: u32) -> Option<UnsignedMagic> {
    if d < 2 || d.is_power_of_two() || n > 32 || d >> n != 0 {
        return None;
    }
    if let Some((m, s)) = fitting_multiplier(d, n, n) {
        return Some(UnsignedMagic::Mul { m, s });
    }
    let k = d.trailing_zeros();
    if k > 0 {
        if let Some((m, s)) = fitting_multiplier(d >> k, n, n - k) {
            return Some(UnsignedMagic::PreShift { k, m, s });
        }
    }
    // l = ceil(log2 d) >= 2; m = ceil(2^(n + l) / d) is in [2^n, 2^(n+1)).
    let l = 64 - (d - 1).leading_zeros();
    let big = (1u128 << (n + l)).div_ceil(u128::from(d));
    Some(UnsignedMagic::Add {
        m: (big - (1u128 << n)) as u64,
        s: l - 1,
    })
}

/// A signed division by a constant `d` (`|d| >= 2`, not `±2^k`): `(M, s)` of the module docs,
/// `M` as `n`-bit two's complement bits.
pub fn signed_magic(d: i64, n: u32) -> Option<(u64, u32)> {
    let ad = d.unsigned_abs();
    if ad < 2 || ad.is_power_of_two() || n > 32 || ad >> (n - 1) != 0 {
        return None;
    }
    let two = 1u128 << (n - 1);
    let ad = u128::from(ad);
    let t = two + u128::from(d < 0);
    let anc = t - 1 - t % ad;
    let mut p = n - 1;
    let (mut q1, mut r1) = (two / anc, two - (two / anc) * anc);
    let (mut q2, mut r2) = (two / ad, two - (two / ad) * ad);
    loop {
        p += 1;
        q1 *= 2;
        r1 *= 2;
        if r1 >= anc {
            q1 += 1;
            r1 -= anc;
        }
        q2 *= 2;
        r2 *= 2;
        if r2 >= ad {
            q2 += 1;
            r2 -= ad;
        }
        let delta = ad - r2;
        if !(q1 < delta || (q1 == delta && r1 == 0)) {
            break;
        }
    }
    let mask = (1u128 << n) - 1;
    let mut m = (q2 + 1) & mask;
    if d < 0 {
        m = (m.wrapping_neg()) & mask;
    }
    Some((m as u64, p - n))
}

/// `?c` as a divisor of a 16- or 32-bit type.
fn divisor(b: &mut Bindings<'_>) -> Option<(Const, u32)> {
    let c = b.konst("c")?;
    let n = match c.ty() {
        Type::I16 => 16,
        Type::I32 => 32,
        _ => return None,
    };
    Some((c, n))
}

fn bind_unsigned(b: &mut Bindings<'_>, want: fn(&UnsignedMagic) -> bool) -> bool {
    let Some((c, n)) = divisor(b) else {
        return false;
    };
    let Some(magic) = unsigned_magic(c.bits(), n) else {
        return false;
    };
    if !want(&magic) {
        return false;
    }
    let ty = c.ty();
    match magic {
        UnsignedMagic::Mul { m, s } => {
            b.bind("m", Const::from_bits(ty, m));
            b.bind("s", Const::int(ty, s.into()));
        }
        UnsignedMagic::PreShift { k, m, s } => {
            b.bind("k", Const::int(ty, k.into()));
            b.bind("m", Const::from_bits(ty, m));
            b.bind("s", Const::int(ty, s.into()));
        }
        UnsignedMagic::Add { m, s } => {
            b.bind("m", Const::from_bits(ty, m));
            b.bind("s", Const::int(ty, s.into()));
        }
    }
    true
}

/// `?c` divides with a fitting multiplier: binds `?m`, `?s`.
pub fn udiv_mul(b: &mut Bindings<'_>) -> bool {
    bind_unsigned(b, |m| matches!(m, UnsignedMagic::Mul { .. }))
}

/// `?c` divides after a pre-shift: binds `?k`, `?m`, `?s`.
pub fn udiv_preshift(b: &mut Bindings<'_>) -> bool {
    bind_unsigned(b, |m| matches!(m, UnsignedMagic::PreShift { .. }))
}

/// `?c` needs an N + 1-bit multiplier: binds `?m`, `?s`.
pub fn udiv_add(b: &mut Bindings<'_>) -> bool {
    bind_unsigned(b, |m| matches!(m, UnsignedMagic::Add { .. }))
}

fn bind_signed(b: &mut Bindings<'_>, fixup: i32) -> bool {
    let Some((c, n)) = divisor(b) else {
        return false;
    };
    let d = c.as_i64();
    let Some((m, s)) = signed_magic(d, n) else {
        return false;
    };
    let negative_m = (m >> (n - 1)) & 1 == 1;
    let wanted = match (d > 0, negative_m) {
        (true, true) => 1,
        (false, false) => -1,
        _ => 0,
    };
    if wanted != fixup {
        return false;
    }
    let ty = c.ty();
    b.bind("m", Const::from_bits(ty, m));
    b.bind("s", Const::int(ty, s.into()));
    b.bind("n1", Const::int(ty, i64::from(n - 1)));
    true
}

/// Signed magic with no correction term: binds `?m`, `?s`, `?n1` (= N - 1).
pub fn sdiv_plain(b: &mut Bindings<'_>) -> bool {
    bind_signed(b, 0)
}

/// Signed magic plus the dividend.
pub fn sdiv_plus(b: &mut Bindings<'_>) -> bool {
    bind_signed(b, 1)
}

/// Signed magic minus the dividend.
pub fn sdiv_minus(b: &mut Bindings<'_>) -> bool {
    bind_signed(b, -1)
}

/// `?c` is `±2^k` with `k >= 1` (16 or 32 bits); binds `?k`, `?n1` (= N - 1) and `?nk` (= N - k).
fn pow2_divisor(b: &mut Bindings<'_>, negative: bool) -> bool {
    let Some((c, n)) = divisor(b) else {
        return false;
    };
    let d = c.as_i64();
    if (d < 0) != negative {
        return false;
    }
    let ad = d.unsigned_abs();
    if ad < 2 || !ad.is_power_of_two() {
        return false;
    }
    let k = ad.trailing_zeros();
    let ty = c.ty();
    b.bind("k", Const::int(ty, k.into()));
    b.bind("n1", Const::int(ty, i64::from(n - 1)));
    b.bind("nk", Const::int(ty, i64::from(n - k)));
    true
}

/// `?c` is `2^k`, `k >= 1`.
pub fn sdiv_pow2(b: &mut Bindings<'_>) -> bool {
    pow2_divisor(b, false)
}

/// `?c` is `-2^k`, `k >= 1`.
pub fn sdiv_neg_pow2(b: &mut Bindings<'_>) -> bool {
    pow2_divisor(b, true)
}

/// `?c` is a 16- or 32-bit constant other than 0 and 1 (for unsigned remainders, also not a
/// power of two: `urem-pow2` masks those).
pub fn urem_divisor(b: &mut Bindings<'_>) -> bool {
    divisor(b).is_some_and(|(c, _)| c.bits() > 1 && !c.bits().is_power_of_two())
}

/// `?c` is a 16- or 32-bit constant other than 0, 1 and -1.
pub fn srem_divisor(b: &mut Bindings<'_>) -> bool {
    divisor(b).is_some_and(|(c, _)| c.as_i64().unsigned_abs() > 1)
}

/// `?c` is -1.
pub fn minus_one(b: &mut Bindings<'_>) -> bool {
    b.konst("c")
        .is_some_and(|c| c.ty().is_int() && c.as_i64() == -1)
}

/// Divisors that reach every form (random constants rarely do), both widths.
const EXAMPLE_DIVISORS: [i64; 14] = [3, 5, 6, 7, 10, 12, 14, 28, 100, 641, -3, -7, -12, -100];

/// `(op ?x c)` for every example divisor and both widths.
fn examples(op: PureOp) -> Vec<Term> {
    let mut out = Vec::new();
    for ty in [Type::I32, Type::I16] {
        for d in EXAMPLE_DIVISORS {
            let x = Term::Var("x".to_string(), Some(ty));
            let c = Term::Node(Kind::Const(Const::int(ty, d)), vec![]);
            out.push(Term::Node(Kind::pure(op), vec![x, c]));
        }
    }
    out
}

fn udiv_examples() -> Vec<Term> {
    examples(PureOp::Udiv)
}

fn sdiv_examples() -> Vec<Term> {
    examples(PureOp::Sdiv)
}

fn urem_examples() -> Vec<Term> {
    examples(PureOp::Urem)
}

fn srem_examples() -> Vec<Term> {
    examples(PureOp::Srem)
}

/// The rules of this topic.
pub fn specs() -> Vec<RuleSpec> {
    crate::rule_specs! {
        /// x / d == umulhi(x, m) >> s for unsigned x, with m = ceil(2^p / d) < 2^N
        /// (Granlund-Montgomery Theorem 4.2; module docs).
        "udiv-const-mul": "(udiv ?x ?c)" => "(ushr (umulhi ?x ?m) ?s)", guard = udiv_mul,
            examples = udiv_examples;
        /// x / (2^k d') == umulhi(x >> k, m) >> s: the shorter dividend's multiplier fits.
        "udiv-const-preshift": "(udiv ?x ?c)" => "(ushr (umulhi (ushr ?x ?k) ?m) ?s)",
            guard = udiv_preshift, examples = udiv_examples;
        /// x / d == (t + ((x - t) >> 1)) >> s, t = umulhi(x, m): the N + 1-bit multiplier
        /// 2^N + m without overflow.
        "udiv-const-add": "(udiv ?x ?c)"
            => "(ushr (iadd (umulhi ?x ?m) (ushr (isub ?x (umulhi ?x ?m)) 1)) ?s)",
            guard = udiv_add, examples = udiv_examples;
        /// x % d == x - (x / d) * d (unsigned, d not 0, 1 or 2^k).
        "urem-const": "(urem ?x ?c)" => "(isub ?x (imul (udiv ?x ?c) ?c))", guard = urem_divisor,
            examples = urem_examples;
        /// x / 2^k == (x + (2^k - 1 if x < 0)) >> k (arithmetic), truncating toward zero: the
        /// bias is (x >> (N-1)) >>> (N-k).
        "sdiv-pow2": "(sdiv ?x ?c)" => "(sshr (iadd ?x (ushr (sshr ?x ?n1) ?nk)) ?k)",
            guard = sdiv_pow2;
        /// x / -2^k == -(x / 2^k) (truncating division is odd in its divisor).
        "sdiv-neg-pow2": "(sdiv ?x ?c)" => "(ineg (sshr (iadd ?x (ushr (sshr ?x ?n1) ?nk)) ?k))",
            guard = sdiv_neg_pow2;
        /// x / -1 == -x (MIN / -1 wraps to MIN, as `ineg` does).
        "sdiv-minus-one": "(sdiv ?x ?c)" => "(ineg ?x)", guard = minus_one;
        /// x / d == q + (q >>> (N-1)), q = smulhi(x, M) >> s (Hacker's Delight 10-6).
        "sdiv-const-mul": "(sdiv ?x ?c)"
            => "(iadd (sshr (smulhi ?x ?m) ?s) (ushr (sshr (smulhi ?x ?m) ?s) ?n1))",
            guard = sdiv_plain, examples = sdiv_examples;
        /// The same with q = (smulhi(x, M) + x) >> s, for d > 0 and M < 0.
        "sdiv-const-mul-add": "(sdiv ?x ?c)"
            => "(iadd (sshr (iadd (smulhi ?x ?m) ?x) ?s) \
                (ushr (sshr (iadd (smulhi ?x ?m) ?x) ?s) ?n1))",
            guard = sdiv_plus, examples = sdiv_examples;
        /// The same with q = (smulhi(x, M) - x) >> s, for d < 0 and M > 0.
        "sdiv-const-mul-sub": "(sdiv ?x ?c)"
            => "(iadd (sshr (isub (smulhi ?x ?m) ?x) ?s) \
                (ushr (sshr (isub (smulhi ?x ?m) ?x) ?s) ?n1))",
            guard = sdiv_minus, examples = sdiv_examples;
        /// x % d == x - (x / d) * d (signed, truncating; d not 0 or ±1).
        "srem-const": "(srem ?x ?c)" => "(isub ?x (imul (sdiv ?x ?c) ?c))", guard = srem_divisor,
            examples = srem_examples;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn udiv_by(magic: UnsignedMagic, x: u64, n: u32) -> u64 {
        let mask = (1u64 << n) - 1;
        let hi = |a: u64, m: u64| (a * m) >> n;
        match magic {
            UnsignedMagic::Mul { m, s } => hi(x, m) >> s,
            UnsignedMagic::PreShift { k, m, s } => hi(x >> k, m) >> s,
            UnsignedMagic::Add { m, s } => {
                let t = hi(x, m);
                ((t + (((x.wrapping_sub(t)) & mask) >> 1)) & mask) >> s
            }
        }
    }

    fn sdiv_by(m: u64, s: u32, d: i64, x: i64, n: u32) -> i64 {
        let sign = |v: i64| (v << (64 - n)) >> (64 - n);
        let mm = sign(m as i64);
        let mut q = (x * mm) >> n;
        if d > 0 && mm < 0 {
            q += x;
        }
        if d < 0 && mm > 0 {
            q -= x;
        }
        q = sign(q) >> s;
        sign(q + i64::from(q < 0))
    }

    /// Divisors to check exhaustively: every small one, then a stride through the rest (each
    /// form of magic number occurs among them), and the largest.
    fn divisors16() -> impl Iterator<Item = i64> {
        (2..=600)
            .chain((601..0x8000).step_by(97))
            .chain([0x7ffe, 0x7fff])
    }

    #[test]
    fn unsigned_16_bit_magic_is_exact_for_every_dividend() {
        let ds = divisors16().flat_map(|d| [d as u64, 0xffff - d as u64 + 2]);
        for d in ds {
            if !(3..=0xffff).contains(&d) || d.is_power_of_two() {
                continue;
            }
            let magic = unsigned_magic(d, 16).unwrap();
            for x in 0u64..=0xffff {
                assert_eq!(udiv_by(magic, x, 16), x / d, "{x} / {d} by {magic:?}");
            }
        }
    }

    #[test]
    fn signed_16_bit_magic_is_exact_for_every_dividend() {
        for d in divisors16().flat_map(|d| [d, -d]) {
            if d.unsigned_abs() < 2 || d.unsigned_abs().is_power_of_two() {
                continue;
            }
            let (m, s) = signed_magic(d, 16).unwrap();
            for x in -0x8000i64..=0x7fff {
                assert_eq!(sdiv_by(m, s, d, x, 16), x / d, "{x} / {d}");
            }
        }
    }

    #[test]
    fn each_form_has_its_divisors() {
        assert!(matches!(
            unsigned_magic(3, 32),
            Some(UnsignedMagic::Mul { .. })
        ));
        assert!(matches!(
            unsigned_magic(7, 32),
            Some(UnsignedMagic::Add { .. })
        ));
        assert!(matches!(
            unsigned_magic(14, 32),
            Some(UnsignedMagic::PreShift { k: 1, .. })
        ));
        assert_eq!(unsigned_magic(8, 32), None);
        assert_eq!(signed_magic(-4, 32), None);
    }

    #[test]
    fn thirty_two_bit_magic_is_exact_on_edges_and_samples() {
        let mut rng = crate::opt::synth::Rng::new(0x1234_5678_9abc_def0u64);
        let mut next = move || rng.next_u64();
        let divisors: Vec<u64> = [3, 5, 6, 7, 10, 11, 12, 25, 100, 641, 1000, 0x7fff_ffff]
            .into_iter()
            .chain((0..200).map(|_| next() >> (32 + next() % 31)))
            .filter(|&d| d > 2 && !d.is_power_of_two() && d < 1 << 32)
            .collect();
        for &d in &divisors {
            let magic = unsigned_magic(d, 32).unwrap();
            let xs = [0, 1, d - 1, d, d + 1, u32::MAX as u64, u32::MAX as u64 - 1];
            for x in xs
                .into_iter()
                .chain((0..2000).map(|_| next() & 0xffff_ffff))
            {
                assert_eq!(udiv_by(magic, x, 32), x / d, "{x} / {d} by {magic:?}");
            }
            let sd = (d as i64) & 0x7fff_ffff;
            for sd in [sd, -sd] {
                if sd.unsigned_abs() < 2 || sd.unsigned_abs().is_power_of_two() {
                    continue;
                }
                let (m, s) = signed_magic(sd, 32).unwrap();
                let xs = [0, 1, -1, i32::MIN as i64, i32::MAX as i64, sd, -sd, sd - 1];
                for x in xs
                    .into_iter()
                    .chain((0..2000).map(|_| (next() as i32) as i64))
                {
                    assert_eq!(sdiv_by(m, s, sd, x, 32), x / sd, "{x} / {sd}");
                }
            }
        }
    }
}
