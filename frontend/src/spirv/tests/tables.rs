//! Large constant arrays read at dynamic indices go to the function's constant data
//! (`spirv::table`); small ones stay selects.

use super::kernel::{lift_with, run_lifted, Kernel, LOCAL};
use crate::spirv::table::MIN_TABLE_WORDS;
use crate::spirv::LiftOptions;
use agxc_egraph::interp::bytes_u32;
use agxc_egraph::ir::{AddressSpace, EffectOp, Function, Op, PureOp};
use rspirv::dr::Operand;
use spirv::{Decoration, StorageClass};

/// `out[gid] = table[in[gid]]` with `table` a constant `uint[n]` of `value(k)` held in a
/// function variable, as glslang compiles a GLSL `const uint table[n]` read at a dynamic index.
fn kernel(n: u32, value: impl Fn(u32) -> u32) -> Vec<u32> {
    kernel_masked(n, None, value)
}

/// [`kernel`], the index masked with `in[gid] & mask` when a mask is given.
fn kernel_masked(n: u32, mask: Option<u32>, value: impl Fn(u32) -> u32) -> Vec<u32> {
    let mut k = Kernel::new();
    let len = k.u32(n);
    let arr = k.b.type_array(k.uint, len);
    k.b.decorate(arr, Decoration::ArrayStride, [Operand::LiteralBit32(4)]);
    let elems: Vec<_> = (0..n).map(|i| k.u32(value(i))).collect();
    let table = k.b.constant_composite(arr, elems);
    let ptr_arr = k.b.type_pointer(None, StorageClass::Function, arr);
    let ptr_elem = k.b.type_pointer(None, StorageClass::Function, k.uint);
    let var = k.b.variable(ptr_arr, None, StorageClass::Function, None);
    k.b.store(var, table, None, []).unwrap();
    let gid = k.gid;
    let mut i = k.load_in(gid);
    if let Some(m) = mask {
        let m = k.u32(m);
        i = k.b.bitwise_and(k.uint, None, i, m).unwrap();
    }
    let p = k.b.access_chain(ptr_elem, None, var, [i]).unwrap();
    let x = k.b.load(k.uint, None, p, None, []).unwrap();
    k.store_out(gid, x);
    k.finish()
}

fn counts(f: &Function) -> (usize, usize) {
    let mut loads = 0;
    let mut selects = 0;
    f.for_each_inst(|_, inst| match f.insts[inst].op {
        Op::Effect(EffectOp::Load(a)) if a.space == AddressSpace::Constant => loads += 1,
        Op::Pure(PureOp::Select) => selects += 1,
        _ => {}
    });
    (loads, selects)
}

#[test]
fn a_large_constant_table_is_one_load_from_the_constant_data() {
    let n = MIN_TABLE_WORDS as u32 + 4;
    let value = |i: u32| i.wrapping_mul(0x9e37_79b9) ^ 0x55;
    let f = lift_with(&kernel(n, value), &LiftOptions::default());
    assert_eq!(counts(&f), (1, 0));
    assert_eq!(umins(&f), 1);
    let want: Vec<u32> = (0..n).map(value).collect();
    assert_eq!(bytes_u32(&f.constant_data), want);
    // In-range indices read their entry; indices past the end (undefined in SPIR-V) read
    // the last one.
    let input: Vec<u32> = (0..LOCAL * 4).map(|i| (i * 3) % (n + 7)).collect();
    let out = run_lifted(&f, &input);
    let expected: Vec<u32> = input.iter().map(|&i| value(i.min(n - 1))).collect();
    assert_eq!(out, expected);
}

fn umins(f: &Function) -> usize {
    let mut n = 0;
    f.for_each_inst(|_, inst| n += usize::from(f.insts[inst].op == Op::Pure(PureOp::Umin)));
    n
}

#[test]
fn an_index_masked_into_the_table_is_not_clamped() {
    let value = |i: u32| 1000 + i;
    // 20 entries: `& 15` stays inside, `& 31` may not.
    for (mask, clamps) in [(15, 0), (31, 1)] {
        let f = lift_with(
            &kernel_masked(20, Some(mask), value),
            &LiftOptions::default(),
        );
        assert_eq!((counts(&f), umins(&f)), ((1, 0), clamps), "mask {mask}");
        let input: Vec<u32> = (0..LOCAL * 4).map(|i| i * 7).collect();
        let out = run_lifted(&f, &input);
        let expected: Vec<u32> = input.iter().map(|&i| value((i & mask).min(19))).collect();
        assert_eq!(out, expected, "mask {mask}");
    }
}

#[test]
fn a_small_constant_table_stays_in_registers() {
    let n = MIN_TABLE_WORDS as u32 - 1;
    let f = lift_with(&kernel(n, |i| i * 10), &LiftOptions::default());
    let (loads, selects) = counts(&f);
    assert_eq!((loads, selects), (0, n as usize - 1));
    assert!(f.constant_data.is_empty());
}
