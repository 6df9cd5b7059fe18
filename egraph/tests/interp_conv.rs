//! Conversions through the interpreter: float to integer (truncation, saturation, NaN),
//! integer to float (round to nearest even), f32 <-> f16 (denormals, overflow, ties),
//! integer width changes and bit casts. Expected values from IEEE rules and Rust's `as`.

mod interp_support;

use agxc_egraph::ir::{Const, PureOp, Type};
use interp_support::{check_convert, f, h, hv, i};

fn u32c(v: u32) -> Const {
    Const::u32(v)
}

#[test]
fn float_to_signed_truncates_and_saturates() {
    check_convert(
        PureOp::F2s,
        &[
            (f(1.9), i(1)),
            (f(-1.9), i(-1)),
            (f(-0.0), i(0)),
            (f(f32::from_bits(1)), i(0)),
            (f(f32::NAN), i(0)),
            (f(f32::INFINITY), i(i32::MAX)),
            (f(f32::NEG_INFINITY), i(i32::MIN)),
            (f(3e9), i(i32::MAX)),
            (f(-3e9), i(i32::MIN)),
            // The largest f32 below 2^31 converts exactly.
            (f(2147483520.0), i(2147483520)),
            (f(-2147483648.0), i(i32::MIN)),
            (f(40000.0), Const::i16(i16::MAX)),
            (f(-40000.0), Const::i16(i16::MIN)),
            (f(1e19), Const::i64(i64::MAX)),
            (f(-1e19), Const::i64(i64::MIN)),
            (hv(65504.0), i(65504)),
            (h(0xfc00), i(i32::MIN)),
            (h(0x7e00), i(0)),
        ],
    );
}

#[test]
fn float_to_unsigned_truncates_and_saturates() {
    check_convert(
        PureOp::F2u,
        &[
            (f(-1.0), u32c(0)),
            (f(-0.5), u32c(0)),
            (f(2.99), u32c(2)),
            (f(4294967040.0), u32c(4294967040)),
            (f(5e9), u32c(u32::MAX)),
            (f(f32::NAN), u32c(0)),
            (f(f32::INFINITY), u32c(u32::MAX)),
            (f(70000.0), Const::i16(-1)),
            (f(2e19), Const::i64(-1)),
        ],
    );
}

#[test]
fn integer_to_float_rounds_to_nearest_even() {
    check_convert(
        PureOp::U2f,
        &[
            (u32c(u32::MAX), f(4294967296.0)),
            // 2^24 + 1 ties to 2^24; 2^24 + 3 ties to 2^24 + 4.
            (u32c(16777217), f(16777216.0)),
            (u32c(16777219), f(16777220.0)),
            (Const::i16(-1), hv(f32::INFINITY)),
            (Const::i64(-1), f(u64::MAX as f32)),
            (Const::i16(2049), hv(2048.0)),
        ],
    );
    check_convert(
        PureOp::S2f,
        &[
            (i(-1), f(-1.0)),
            (i(i32::MIN), f(-2147483648.0)),
            (i(i32::MAX), f(2147483648.0)),
            (i(-16777217), f(-16777216.0)),
            (Const::i64(i64::MAX), f(i64::MAX as f32)),
            (Const::i16(-1), hv(-1.0)),
            // f16 has 11 significant bits: 2049 ties to 2048, 2051 to 2052.
            (i(2049), hv(2048.0)),
            (i(2051), hv(2052.0)),
            // 65519 rounds to the largest finite f16, 65520 (the tie) to infinity.
            (i(65519), hv(65504.0)),
            (i(65520), h(0x7c00)),
            (i(-70000), h(0xfc00)),
        ],
    );
}

#[test]
fn f32_to_f16() {
    check_convert(
        PureOp::Fcvt,
        &[
            (f(1.0), hv(1.0)),
            // Exactly halfway between 1 and 1 + 2^-10: ties to even (1).
            (f(1.0 + 2f32.powi(-11)), h(0x3c00)),
            // The same plus the last f32 bit: above the tie.
            (f(1.0 + 2f32.powi(-11) + 2f32.powi(-23)), h(0x3c01)),
            (f(65519.996), hv(65504.0)),
            (f(65520.0), h(0x7c00)),
            (f(-1e6), h(0xfc00)),
            (f(2f32.powi(-24)), h(0x0001)),
            // 2^-25 ties to 0, 1.5 * 2^-25 rounds up to the smallest denormal.
            (f(2f32.powi(-25)), h(0x0000)),
            (f(1.5 * 2f32.powi(-25)), h(0x0001)),
            // 1e-5 is 167.77 steps of 2^-24: the denormal 168 * 2^-24.
            (f(1e-5), h(168)),
            (f(f32::from_bits(1)), h(0x0000)),
            (f(-0.0), h(0x8000)),
            (f(f32::NAN), h(0x7e00)),
        ],
    );
}

#[test]
fn f16_to_f32_is_exact() {
    check_convert(
        PureOp::Fcvt,
        &[
            (h(0x0001), f(2f32.powi(-24))),
            (h(0x03ff), f(1023.0 * 2f32.powi(-24))),
            (h(0x7bff), f(65504.0)),
            (h(0xfc00), f(f32::NEG_INFINITY)),
            (h(0x8000), f(-0.0)),
            (h(0x7e00), f(f32::NAN)),
        ],
    );
}

#[test]
fn integer_width_changes() {
    check_convert(
        PureOp::Uext,
        &[(Const::i16(-1), i(65535)), (i(-1), Const::i64(0xffff_ffff))],
    );
    check_convert(
        PureOp::Sext,
        &[
            (Const::i16(-1), i(-1)),
            (Const::i16(i16::MIN), Const::i64(-32768)),
            (i(0x7fff_ffff), Const::i64(0x7fff_ffff)),
        ],
    );
    check_convert(
        PureOp::Itrunc,
        &[
            (i(0x1234_5678), Const::i16(0x5678)),
            (i(0x0001_8000), Const::i16(i16::MIN)),
            (Const::i64(0x1_0000_0005), i(5)),
        ],
    );
}

#[test]
fn bitcast_keeps_every_bit() {
    check_convert(
        PureOp::Bitcast,
        &[
            (f(-0.0), u32c(0x8000_0000)),
            // A signalling NaN's payload survives.
            (Const::from_bits(Type::F32, 0x7fa0_0001), u32c(0x7fa0_0001)),
            (h(0x7c01), Const::i16(0x7c01)),
        ],
    );
    check_convert(PureOp::Bitcast, &[(u32c(0x3f80_0000), f(1.0))]);
}
