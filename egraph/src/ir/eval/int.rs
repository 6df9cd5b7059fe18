//! Integer, bitwise and select operations (see the module docs of `eval` for edge cases).

use crate::ir::constant::Const;
use crate::ir::types::Type;

fn bin(a: &[Const], f: impl Fn(u64, u64, u32) -> u64) -> Const {
    let ty = a[0].ty();
    Const::from_bits(ty, f(a[0].bits(), a[1].bits(), ty.bits()))
}

fn sbin(a: &[Const], f: impl Fn(i64, i64, u32) -> i64) -> Const {
    let ty = a[0].ty();
    Const::from_bits(ty, f(a[0].as_i64(), a[1].as_i64(), ty.bits()) as u64)
}

fn un(a: &[Const], f: impl Fn(u64, u32) -> u64) -> Const {
    let ty = a[0].ty();
    Const::from_bits(ty, f(a[0].bits(), ty.bits()))
}

pub fn add(a: &[Const], _: Type) -> Const {
    bin(a, |x, y, _| x.wrapping_add(y))
}
pub fn sub(a: &[Const], _: Type) -> Const {
    bin(a, |x, y, _| x.wrapping_sub(y))
}
pub fn mul(a: &[Const], _: Type) -> Const {
    bin(a, |x, y, _| x.wrapping_mul(y))
}
pub fn umulhi(a: &[Const], _: Type) -> Const {
    bin(a, |x, y, w| ((x as u128 * y as u128) >> w) as u64)
}
pub fn smulhi(a: &[Const], _: Type) -> Const {
    sbin(a, |x, y, w| ((x as i128 * y as i128) >> w) as i64)
}
pub fn udiv(a: &[Const], _: Type) -> Const {
    bin(a, |x, y, _| x.checked_div(y).unwrap_or(u64::MAX))
}
pub fn urem(a: &[Const], _: Type) -> Const {
    bin(a, |x, y, _| if y == 0 { x } else { x % y })
}
// Operands are sign-extended to i64, so for widths below 64 MIN / -1 is an ordinary quotient
// (2^(w-1)) that wraps back to MIN when masked; at 64 bits wrapping_div gives MIN directly.
pub fn sdiv(a: &[Const], _: Type) -> Const {
    sbin(a, |x, y, _| if y == 0 { -1 } else { x.wrapping_div(y) })
}
pub fn srem(a: &[Const], _: Type) -> Const {
    sbin(a, |x, y, _| if y == 0 { x } else { x.wrapping_rem(y) })
}
pub fn shl(a: &[Const], _: Type) -> Const {
    bin(a, |x, y, w| x << (y & (w as u64 - 1)))
}
pub fn ushr(a: &[Const], _: Type) -> Const {
    bin(a, |x, y, w| x >> (y & (w as u64 - 1)))
}
pub fn sshr(a: &[Const], _: Type) -> Const {
    let amount = a[1].bits() & (a[0].ty().bits() as u64 - 1);
    Const::from_bits(a[0].ty(), (a[0].as_i64() >> amount) as u64)
}
pub fn and(a: &[Const], _: Type) -> Const {
    bin(a, |x, y, _| x & y)
}
pub fn or(a: &[Const], _: Type) -> Const {
    bin(a, |x, y, _| x | y)
}
pub fn xor(a: &[Const], _: Type) -> Const {
    bin(a, |x, y, _| x ^ y)
}
pub fn not(a: &[Const], _: Type) -> Const {
    un(a, |x, _| !x)
}
pub fn neg(a: &[Const], _: Type) -> Const {
    un(a, |x, _| x.wrapping_neg())
}
pub fn abs(a: &[Const], _: Type) -> Const {
    let ty = a[0].ty();
    Const::from_bits(ty, a[0].as_i64().wrapping_abs() as u64)
}
pub fn umin(a: &[Const], _: Type) -> Const {
    bin(a, |x, y, _| x.min(y))
}
pub fn umax(a: &[Const], _: Type) -> Const {
    bin(a, |x, y, _| x.max(y))
}
pub fn smin(a: &[Const], _: Type) -> Const {
    sbin(a, |x, y, _| x.min(y))
}
pub fn smax(a: &[Const], _: Type) -> Const {
    sbin(a, |x, y, _| x.max(y))
}

/// Low `count` bits set (count may be 64).
fn low_bits(count: u64) -> u64 {
    if count >= 64 {
        u64::MAX
    } else {
        (1u64 << count) - 1
    }
}

/// Clamps a bitfield's (offset, count) to a width-`w` value: offset to [0, w], count to
/// [0, w - offset]. Both are read as unsigned.
fn field(offset: Const, count: Const, w: u32) -> (u64, u64) {
    let off = offset.bits().min(w as u64);
    let cnt = count.bits().min(w as u64 - off);
    (off, cnt)
}

pub fn bfi(a: &[Const], _: Type) -> Const {
    let ty = a[0].ty();
    let (off, cnt) = field(a[2], a[3], ty.bits());
    if cnt == 0 {
        return a[0];
    }
    let mask = low_bits(cnt) << off;
    Const::from_bits(ty, (a[0].bits() & !mask) | ((a[1].bits() << off) & mask))
}

pub fn ubfe(a: &[Const], _: Type) -> Const {
    let ty = a[0].ty();
    let (off, cnt) = field(a[1], a[2], ty.bits());
    if cnt == 0 {
        return Const::zero(ty);
    }
    Const::from_bits(ty, (a[0].bits() >> off) & low_bits(cnt))
}

pub fn sbfe(a: &[Const], _: Type) -> Const {
    let ty = a[0].ty();
    let (off, cnt) = field(a[1], a[2], ty.bits());
    if cnt == 0 {
        return Const::zero(ty);
    }
    let v = (a[0].bits() >> off) & low_bits(cnt);
    let shift = 64 - cnt;
    Const::from_bits(ty, (((v << shift) as i64) >> shift) as u64)
}

pub fn popcount(a: &[Const], _: Type) -> Const {
    un(a, |x, _| x.count_ones() as u64)
}
pub fn find_lsb(a: &[Const], _: Type) -> Const {
    un(a, |x, _| {
        if x == 0 {
            u64::MAX
        } else {
            x.trailing_zeros() as u64
        }
    })
}
pub fn ufind_msb(a: &[Const], _: Type) -> Const {
    un(a, |x, _| {
        if x == 0 {
            u64::MAX
        } else {
            63 - x.leading_zeros() as u64
        }
    })
}
pub fn sfind_msb(a: &[Const], _: Type) -> Const {
    let ty = a[0].ty();
    let v = a[0].as_i64();
    let m = if v < 0 { !v } else { v } as u64;
    let r = if m == 0 {
        u64::MAX
    } else {
        63 - m.leading_zeros() as u64
    };
    Const::from_bits(ty, r)
}
pub fn bitrev(a: &[Const], _: Type) -> Const {
    un(a, |x, w| x.reverse_bits() >> (64 - w))
}

fn cmp(a: &[Const], f: impl Fn(u64, u64) -> bool) -> Const {
    Const::bool(f(a[0].bits(), a[1].bits()))
}
fn scmp(a: &[Const], f: impl Fn(i64, i64) -> bool) -> Const {
    Const::bool(f(a[0].as_i64(), a[1].as_i64()))
}
pub fn eq(a: &[Const], _: Type) -> Const {
    cmp(a, |x, y| x == y)
}
pub fn ne(a: &[Const], _: Type) -> Const {
    cmp(a, |x, y| x != y)
}
pub fn ult(a: &[Const], _: Type) -> Const {
    cmp(a, |x, y| x < y)
}
pub fn ule(a: &[Const], _: Type) -> Const {
    cmp(a, |x, y| x <= y)
}
pub fn ugt(a: &[Const], _: Type) -> Const {
    cmp(a, |x, y| x > y)
}
pub fn uge(a: &[Const], _: Type) -> Const {
    cmp(a, |x, y| x >= y)
}
pub fn slt(a: &[Const], _: Type) -> Const {
    scmp(a, |x, y| x < y)
}
pub fn sle(a: &[Const], _: Type) -> Const {
    scmp(a, |x, y| x <= y)
}
pub fn sgt(a: &[Const], _: Type) -> Const {
    scmp(a, |x, y| x > y)
}
pub fn sge(a: &[Const], _: Type) -> Const {
    scmp(a, |x, y| x >= y)
}

pub fn select(a: &[Const], _: Type) -> Const {
    if a[0].as_bool() {
        a[1]
    } else {
        a[2]
    }
}
