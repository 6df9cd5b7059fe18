//! Deeply nested structured control flow: the nesting limit (`limits::MAX_NESTING`) admits what
//! shader fuzzers generate and refuses deeper input with an error, not a stack overflow.

use super::kernel::{run, Kernel, LOCAL};
use crate::spirv::context::limits::MAX_NESTING;
use crate::spirv::{lift, LiftOptions, SpirvError};
use spirv::{SelectionControl, StorageClass};

/// `x = in[gid]`, then `depth` selections nested one in another, level `d` taking its arm when
/// bit `d % 31` of `x` is set and then computing `x = x * 3 + d`; `out[gid] = x`.
fn nested_selections(depth: usize) -> Vec<u32> {
    let mut k = Kernel::new();
    let ptr = k.b.type_pointer(None, StorageClass::Function, k.uint);
    // Function variables belong at the start of the first block.
    let var = k.b.variable(ptr, None, StorageClass::Function, None);
    let gid = k.gid;
    let x0 = k.load_in(gid);
    k.b.store(var, x0, None, []).unwrap();
    let (three, zero) = (k.u32(3), k.u32(0));
    let mut merges = Vec::with_capacity(depth);
    for d in 0..depth {
        let x = k.b.load(k.uint, None, var, None, []).unwrap();
        let bit = k.u32(1 << (d % 31));
        let masked = k.b.bitwise_and(k.uint, None, x, bit).unwrap();
        let taken = k.b.i_not_equal(k.boolean, None, masked, zero).unwrap();
        let (arm, merge) = (k.b.id(), k.b.id());
        k.b.selection_merge(merge, SelectionControl::NONE).unwrap();
        k.b.branch_conditional(taken, arm, merge, []).unwrap();
        k.b.begin_block(Some(arm)).unwrap();
        let level = k.u32(d as u32);
        let tripled = k.b.i_mul(k.uint, None, x, three).unwrap();
        let next = k.b.i_add(k.uint, None, tripled, level).unwrap();
        k.b.store(var, next, None, []).unwrap();
        merges.push(merge);
    }
    // Close the constructs innermost first: each merge block branches to the enclosing one's.
    while let Some(merge) = merges.pop() {
        k.b.branch(merge).unwrap();
        k.b.begin_block(Some(merge)).unwrap();
    }
    let x = k.b.load(k.uint, None, var, None, []).unwrap();
    k.store_out(gid, x);
    k.finish()
}

/// The kernel's result, computed directly.
fn expected(depth: usize, mut x: u32) -> u32 {
    for d in 0..depth {
        if x & (1 << (d % 31)) == 0 {
            break;
        }
        x = x.wrapping_mul(3).wrapping_add(d as u32);
    }
    x
}

#[test]
fn selections_nested_to_the_limit_lift_and_run() {
    let depth = MAX_NESTING - 1;
    let input: Vec<u32> = (0..LOCAL * 4)
        .map(|i| match i {
            0 => u32::MAX,
            1 => 0,
            _ => i.wrapping_mul(0x9e37_79b9) | 0x7fff_ffff,
        })
        .collect();
    let out = run(&nested_selections(depth), &input);
    let want: Vec<u32> = input.iter().map(|&x| expected(depth, x)).collect();
    assert_eq!(out, want);
}

#[test]
fn deeper_nesting_is_an_error_naming_the_limit() {
    let words = nested_selections(MAX_NESTING + 1);
    let e = lift(&words, &LiftOptions::default()).expect_err("too deep");
    assert!(matches!(e, SpirvError::TooLarge { .. }), "{e:?}");
    assert!(e.to_string().contains("nested more than"), "{e}");
}
