//! Atomic instructions on a storage buffer: every read-modify-write returns the old value and
//! the lanes take their turns in the interpreter's documented order (ascending invocation,
//! workgroup by workgroup), so the expected old values are a sequential fold done here with
//! Rust's own integer arithmetic.

use super::kernel::{run, Kernel};
use spirv::Op;

/// `Device` scope (SPIR-V 3.27) and relaxed semantics.
const DEVICE: u32 = 1;
const RELAXED: u32 = 0;

/// The sixteen inputs; word 15 is also the word the atomics work on (its value was loaded by
/// every lane before the first atomic).
const INPUT: [i32; 16] = [3, -8, 5, 12, -1, 5, 0, 7, 100, -100, 5, 9, 2, -3, 5, 5];

/// Runs `old = op(&in[15], x)` for `x = in[gid]`, `out[gid] = old`.
fn old_values(op: Op) -> Vec<u32> {
    let mut k = Kernel::new();
    let scope = k.u32(DEVICE);
    let sem = k.u32(RELAXED);
    let x = k.load_in(k.gid);
    let last = k.u32(15);
    let p = k.in_ptr(last);
    let u = k.uint;
    let five = k.u32(5);
    let old = match op {
        Op::AtomicIAdd => k.b.atomic_i_add(u, None, p, scope, sem, x),
        Op::AtomicISub => k.b.atomic_i_sub(u, None, p, scope, sem, x),
        Op::AtomicSMin => k.b.atomic_s_min(u, None, p, scope, sem, x),
        Op::AtomicUMin => k.b.atomic_u_min(u, None, p, scope, sem, x),
        Op::AtomicSMax => k.b.atomic_s_max(u, None, p, scope, sem, x),
        Op::AtomicUMax => k.b.atomic_u_max(u, None, p, scope, sem, x),
        Op::AtomicAnd => k.b.atomic_and(u, None, p, scope, sem, x),
        Op::AtomicOr => k.b.atomic_or(u, None, p, scope, sem, x),
        Op::AtomicXor => k.b.atomic_xor(u, None, p, scope, sem, x),
        Op::AtomicExchange => k.b.atomic_exchange(u, None, p, scope, sem, x),
        Op::AtomicIIncrement => k.b.atomic_i_increment(u, None, p, scope, sem),
        Op::AtomicIDecrement => k.b.atomic_i_decrement(u, None, p, scope, sem),
        Op::AtomicCompareExchange => {
            k.b.atomic_compare_exchange(u, None, p, scope, sem, sem, x, five)
        }
        _ => {
            k.b.atomic_compare_exchange_weak(u, None, p, scope, sem, sem, x, five)
        }
    }
    .unwrap();
    k.store_out(k.gid, old);
    let input: Vec<u32> = INPUT.iter().map(|&v| v as u32).collect();
    run(&k.finish(), &input)
}

/// The old value each invocation sees when the word starts at `INPUT[15]` and invocations
/// apply `f` in order.
fn fold(f: impl Fn(i32, i32) -> i32) -> Vec<u32> {
    let mut acc = INPUT[15];
    let mut out = Vec::new();
    for &x in &INPUT {
        out.push(acc as u32);
        acc = f(acc, x);
    }
    out
}

#[test]
fn read_modify_writes_return_old_values_in_invocation_order() {
    type Fold = fn(i32, i32) -> i32;
    let table: [(Op, Fold); 14] = [
        (Op::AtomicIAdd, |a, x| a.wrapping_add(x)),
        (Op::AtomicISub, |a, x| a.wrapping_sub(x)),
        (Op::AtomicSMin, |a, x| a.min(x)),
        (Op::AtomicUMin, |a, x| (a as u32).min(x as u32) as i32),
        (Op::AtomicSMax, |a, x| a.max(x)),
        (Op::AtomicUMax, |a, x| (a as u32).max(x as u32) as i32),
        (Op::AtomicAnd, |a, x| a & x),
        (Op::AtomicOr, |a, x| a | x),
        (Op::AtomicXor, |a, x| a ^ x),
        (Op::AtomicExchange, |_, x| x),
        (Op::AtomicIIncrement, |a, _| a.wrapping_add(1)),
        (Op::AtomicIDecrement, |a, _| a.wrapping_sub(1)),
        (Op::AtomicCompareExchange, |a, x| if a == 5 { x } else { a }),
        (
            Op::AtomicCompareExchangeWeak,
            |a, x| {
                if a == 5 {
                    x
                } else {
                    a
                }
            },
        ),
    ];
    for (op, f) in table {
        assert_eq!(old_values(op), fold(f), "{op:?}");
    }
}

#[test]
fn atomic_load_and_store_are_plain_accesses() {
    let mut k = Kernel::new();
    let scope = k.u32(DEVICE);
    let sem = k.u32(RELAXED);
    let p = k.in_ptr(k.gid);
    let v = k.b.atomic_load(k.uint, None, p, scope, sem).unwrap();
    let one = k.u32(1);
    let v1 = k.b.i_add(k.uint, None, v, one).unwrap();
    k.b.atomic_store(p, scope, sem, v1).unwrap();
    let again = k.b.atomic_load(k.uint, None, p, scope, sem).unwrap();
    k.store_out(k.gid, again);
    let input: Vec<u32> = (0..8).map(|i| i * 10).collect();
    let expected: Vec<u32> = (0..8).map(|i| i * 10 + 1).collect();
    assert_eq!(run(&k.finish(), &input), expected);
}
