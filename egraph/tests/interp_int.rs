//! Integer operations through the interpreter: wrapping arithmetic, division by zero and
//! MIN / -1, shifts by amounts >= the width, bitfields, bit counts and scans, bit reversal,
//! min/max, comparisons and select. Expected values by hand or from Rust's integer methods.

mod interp_support;

use agxc_egraph::ir::{Const, PureOp};
use interp_support::{check, f, i};

fn b(v: bool) -> Const {
    Const::bool(v)
}
fn s(v: i16) -> Const {
    Const::i16(v)
}
fn l(v: i64) -> Const {
    Const::i64(v)
}
fn u(v: u32) -> Const {
    Const::u32(v)
}

mod wrap {
    use super::*;

    #[test]
    fn add_sub_mul_neg_abs_wrap() {
        check(
            PureOp::Iadd,
            &[
                (vec![i(i32::MAX), i(1)], i(i32::MIN)),
                (vec![s(i16::MAX), s(1)], s(i16::MIN)),
                (vec![l(i64::MAX), l(1)], l(i64::MIN)),
                (vec![u(u32::MAX), u(2)], i(1)),
            ],
        );
        check(PureOp::Isub, &[(vec![i(i32::MIN), i(1)], i(i32::MAX))]);
        check(
            PureOp::Imul,
            &[
                (vec![i(0x10000), i(0x10000)], i(0)),
                // 300 * 300 = 90000 = 65536 + 24464.
                (vec![s(300), s(300)], s(24464)),
                (vec![i(-3), i(7)], i(-21)),
            ],
        );
        check(
            PureOp::Ineg,
            &[(vec![i(i32::MIN)], i(i32::MIN)), (vec![i(5)], i(-5))],
        );
        check(
            PureOp::Iabs,
            &[
                (vec![i(i32::MIN)], i(i32::MIN)),
                (vec![i(-5)], i(5)),
                (vec![s(-1)], s(1)),
            ],
        );
    }

    #[test]
    fn high_products() {
        check(
            PureOp::Umulhi,
            &[
                // (2^32 - 1)^2 = 2^64 - 2^33 + 1: high word 0xfffffffe.
                (vec![u(u32::MAX), u(u32::MAX)], u(0xffff_fffe)),
                (vec![u(0x10000), u(0x10000)], u(1)),
            ],
        );
        check(
            PureOp::Smulhi,
            &[
                (vec![i(-1), i(-1)], i(0)),
                // MIN * MIN = 2^62: high word 2^30.
                (vec![i(i32::MIN), i(i32::MIN)], i(0x4000_0000)),
                (vec![i(-2), i(3)], i(-1)),
                (vec![l(i64::MIN), l(2)], l(-1)),
            ],
        );
    }
}

mod division {
    use super::*;

    #[test]
    fn unsigned() {
        check(
            PureOp::Udiv,
            &[
                (vec![u(7), u(2)], u(3)),
                (vec![u(7), u(0)], u(u32::MAX)),
                (vec![u(u32::MAX), u(2)], u(0x7fff_ffff)),
                (vec![s(5), s(0)], s(-1)),
            ],
        );
        check(
            PureOp::Urem,
            &[(vec![u(7), u(0)], u(7)), (vec![u(u32::MAX), u(10)], u(5))],
        );
    }

    #[test]
    fn signed() {
        check(
            PureOp::Sdiv,
            &[
                (vec![i(-7), i(2)], i(-3)),
                (vec![i(7), i(-2)], i(-3)),
                (vec![i(7), i(0)], i(-1)),
                (vec![i(-7), i(0)], i(-1)),
                (vec![i(i32::MIN), i(-1)], i(i32::MIN)),
                (vec![s(i16::MIN), s(-1)], s(i16::MIN)),
                (vec![l(i64::MIN), l(-1)], l(i64::MIN)),
            ],
        );
        check(
            PureOp::Srem,
            &[
                (vec![i(-7), i(2)], i(-1)),
                (vec![i(7), i(-2)], i(1)),
                (vec![i(i32::MIN), i(-1)], i(0)),
                (vec![i(-7), i(0)], i(-7)),
                (vec![l(i64::MIN), l(-1)], l(0)),
            ],
        );
    }
}

mod shifts {
    use super::*;

    #[test]
    fn amounts_are_taken_modulo_the_width() {
        check(
            PureOp::Ishl,
            &[
                (vec![i(1), i(31)], i(i32::MIN)),
                (vec![i(1), i(32)], i(1)),
                (vec![i(1), i(33)], i(2)),
                (vec![i(1), i(-1)], i(i32::MIN)),
                (vec![s(1), s(16)], s(1)),
                (vec![s(1), s(15)], s(i16::MIN)),
                (vec![l(1), l(64)], l(1)),
                (vec![l(1), l(63)], l(i64::MIN)),
            ],
        );
        check(
            PureOp::Ushr,
            &[
                (vec![i(-1), i(32)], i(-1)),
                (vec![i(i32::MIN), i(31)], i(1)),
                (vec![i(-1), i(36)], i(0x0fff_ffff)),
                (vec![s(-1), s(1)], s(0x7fff)),
            ],
        );
        check(
            PureOp::Sshr,
            &[
                (vec![i(i32::MIN), i(31)], i(-1)),
                (vec![i(i32::MIN), i(63)], i(-1)),
                (vec![i(i32::MIN), i(32)], i(i32::MIN)),
                (vec![i(-8), i(1)], i(-4)),
                (vec![s(i16::MIN), s(4)], s(-2048)),
            ],
        );
    }
}

mod bitwise {
    use super::*;

    #[test]
    fn logic_on_integers_and_bools() {
        check(
            PureOp::And,
            &[
                (vec![u(0xf0f0), u(0xff00)], u(0xf000)),
                (vec![b(true), b(false)], b(false)),
            ],
        );
        check(
            PureOp::Or,
            &[
                (vec![u(0xf0f0), u(0x0f00)], u(0xfff0)),
                (vec![b(true), b(false)], b(true)),
            ],
        );
        check(
            PureOp::Xor,
            &[
                (vec![i(-1), i(0x0f)], i(!0x0f)),
                (vec![b(true), b(true)], b(false)),
            ],
        );
        check(
            PureOp::Not,
            &[
                (vec![i(0)], i(-1)),
                (vec![s(0x00ff)], s(!0x00ff)),
                (vec![b(true)], b(false)),
            ],
        );
    }

    #[test]
    fn bitfield_insert() {
        check(
            PureOp::Bfi,
            &[
                (vec![u(0xffff_0000), u(0xab), i(4), i(8)], u(0xffff_0ab0)),
                (vec![u(0x1234), u(0xff), i(4), i(0)], u(0x1234)),
                // offset 30, count 8 clamps to 2 bits.
                (vec![u(0), u(0b1111), i(30), i(8)], u(0xc000_0000)),
                (vec![u(0x55), u(0xff), i(40), i(8)], u(0x55)),
                (vec![u(0), u(u32::MAX), i(0), i(32)], u(u32::MAX)),
                (vec![s(0), s(0x7), i(13), i(3)], s(-8192)),
            ],
        );
    }

    #[test]
    fn bitfield_extract() {
        check(
            PureOp::Ubfe,
            &[
                (vec![u(0x1234_5678), i(8), i(8)], u(0x56)),
                (vec![u(0x1234_5678), i(28), i(8)], u(0x1)),
                (vec![u(0x1234_5678), i(4), i(0)], u(0)),
                (vec![u(u32::MAX), i(0), i(32)], u(u32::MAX)),
            ],
        );
        check(
            PureOp::Sbfe,
            &[
                (vec![u(0x0000_8000), i(8), i(8)], i(-128)),
                (vec![u(0x0000_7f00), i(8), i(8)], i(127)),
                (vec![u(0x8000_0000), i(31), i(1)], i(-1)),
                (vec![u(0x8000_0000), i(31), i(0)], i(0)),
                (vec![l(0x8000_0000), i(31), i(1)], l(-1)),
            ],
        );
    }

    #[test]
    fn counts_and_scans() {
        check(
            PureOp::Popcount,
            &[
                (vec![i(0)], i(0)),
                (vec![i(-1)], i(32)),
                (vec![i(0xf0f0)], i(8)),
                (vec![s(-1)], s(16)),
                (vec![l(-1)], l(64)),
            ],
        );
        check(
            PureOp::FindLsb,
            &[
                (vec![i(0)], i(-1)),
                (vec![i(8)], i(3)),
                (vec![i(i32::MIN)], i(31)),
                (vec![s(0)], s(-1)),
            ],
        );
        check(
            PureOp::UfindMsb,
            &[
                (vec![i(0)], i(-1)),
                (vec![i(1)], i(0)),
                (vec![i(-1)], i(31)),
                (vec![s(-1)], s(15)),
                (vec![l(1 << 40)], l(40)),
            ],
        );
        check(
            PureOp::SfindMsb,
            &[
                (vec![i(0)], i(-1)),
                (vec![i(-1)], i(-1)),
                (vec![i(1)], i(0)),
                // -2 = ...1110: the highest bit differing from the sign is bit 0.
                (vec![i(-2)], i(0)),
                (vec![i(i32::MIN)], i(30)),
                (vec![i(0x4000_0000)], i(30)),
                (vec![s(i16::MIN)], s(14)),
            ],
        );
    }

    #[test]
    fn bit_reverse() {
        check(
            PureOp::Bitrev,
            &[
                (vec![i(1)], i(i32::MIN)),
                (vec![s(1)], s(i16::MIN)),
                (vec![u(0x1234_5678)], u(0x1234_5678u32.reverse_bits())),
                (vec![l(3)], l(3u64.reverse_bits() as i64)),
            ],
        );
    }
}

mod ordering {
    use super::*;

    #[test]
    fn min_max_and_comparisons() {
        check(PureOp::Umin, &[(vec![i(-1), i(1)], i(1))]);
        check(PureOp::Umax, &[(vec![i(-1), i(1)], i(-1))]);
        check(
            PureOp::Smin,
            &[(vec![i(-1), i(1)], i(-1)), (vec![s(-3), s(2)], s(-3))],
        );
        check(PureOp::Smax, &[(vec![i(-1), i(1)], i(1))]);
        check(
            PureOp::Ult,
            &[(vec![i(-1), i(0)], b(false)), (vec![i(0), i(-1)], b(true))],
        );
        check(PureOp::Slt, &[(vec![i(-1), i(0)], b(true))]);
        check(PureOp::Ule, &[(vec![i(5), i(5)], b(true))]);
        check(PureOp::Uge, &[(vec![s(-1), s(0)], b(true))]);
        check(PureOp::Ugt, &[(vec![l(-1), l(1)], b(true))]);
        check(PureOp::Sgt, &[(vec![l(-1), l(1)], b(false))]);
        check(PureOp::Sle, &[(vec![i(i32::MIN), i(i32::MAX)], b(true))]);
        check(PureOp::Sge, &[(vec![i(i32::MIN), i(i32::MAX)], b(false))]);
        check(
            PureOp::Ieq,
            &[
                (vec![b(true), b(true)], b(true)),
                (vec![i(3), i(4)], b(false)),
            ],
        );
        check(PureOp::Ine, &[(vec![b(true), b(false)], b(true))]);
    }

    #[test]
    fn select_picks_per_lane() {
        let nan = Const::from_bits(agxc_egraph::ir::Type::F32, 0x7fc0_1234);
        check(
            PureOp::Select,
            &[
                (vec![b(true), i(1), i(2)], i(1)),
                (vec![b(false), i(1), i(2)], i(2)),
                (vec![b(true), f(-0.0), f(0.0)], f(-0.0)),
            ],
        );
        // The NaN payload passes through untouched (checked bitwise on the integer view).
        let got = interp_support::run_pure(PureOp::Select, &[vec![b(true), nan, f(0.0)]]);
        assert_eq!(got[0].bits(), 0x7fc0_1234);
    }
}
