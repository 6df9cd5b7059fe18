//! Large local arrays written at dynamic indices go to private memory (`spirv::private`);
//! small ones, and ones only read dynamically, stay promoted.

use super::kernel::{lift_with, run_lifted, Kernel, LOCAL};
use crate::spirv::private::MIN_PRIVATE_BYTES;
use crate::spirv::LiftOptions;
use agxc_egraph::ir::{AddressSpace, EffectOp, Function, Op, PureOp};
use spirv::StorageClass;

/// `arr[i] = gid + 1; arr[i + 2] = 5000; out[gid] = arr[i] ^ arr[i + 2] << 8 ^ arr[0] << 20`
/// with `i = in[gid]` and `arr` a function-local `uint[n]`; with `dynamic_store` false, the
/// two stores go to constant indices 1 and 3 instead (the reads stay dynamic).
fn kernel(n: u32, dynamic_store: bool) -> Vec<u32> {
    let mut k = Kernel::new();
    let len = k.u32(n);
    let arr = k.b.type_array(k.uint, len);
    let ptr_arr = k.b.type_pointer(None, StorageClass::Function, arr);
    let ptr_elem = k.b.type_pointer(None, StorageClass::Function, k.uint);
    let var = k.b.variable(ptr_arr, None, StorageClass::Function, None);
    let gid = k.gid;
    let i = k.load_in(gid);
    let (one, two, eight, twenty, big) = (k.u32(1), k.u32(2), k.u32(8), k.u32(20), k.u32(5000));
    let zero = k.u32(0);
    let i2 = k.b.i_add(k.uint, None, i, two).unwrap();
    let (s1, s2) = if dynamic_store {
        (i, i2)
    } else {
        (one, k.u32(3))
    };
    let value = k.b.i_add(k.uint, None, gid, one).unwrap();
    let p = k.b.access_chain(ptr_elem, None, var, [s1]).unwrap();
    k.b.store(p, value, None, []).unwrap();
    let p = k.b.access_chain(ptr_elem, None, var, [s2]).unwrap();
    k.b.store(p, big, None, []).unwrap();
    let read = |k: &mut Kernel, ix| {
        let p = k.b.access_chain(ptr_elem, None, var, [ix]).unwrap();
        k.b.load(k.uint, None, p, None, []).unwrap()
    };
    let x = read(&mut k, i);
    let y = read(&mut k, i2);
    let z = read(&mut k, zero);
    let y = k.b.shift_left_logical(k.uint, None, y, eight).unwrap();
    let z = k.b.shift_left_logical(k.uint, None, z, twenty).unwrap();
    let r = k.b.bitwise_xor(k.uint, None, x, y).unwrap();
    let r = k.b.bitwise_xor(k.uint, None, r, z).unwrap();
    k.store_out(gid, r);
    k.finish()
}

/// (private loads, private stores, selects) of `f`.
fn counts(f: &Function) -> (usize, usize, usize) {
    let (mut loads, mut stores, mut selects) = (0, 0, 0);
    f.for_each_inst(|_, inst| match f.insts[inst].op {
        Op::Effect(EffectOp::Load(a)) if a.space == AddressSpace::Private => loads += 1,
        Op::Effect(EffectOp::Store(a)) if a.space == AddressSpace::Private => stores += 1,
        Op::Pure(PureOp::Select) => selects += 1,
        _ => {}
    });
    (loads, stores, selects)
}

/// The kernel's results computed here, on a plain array: every index clamped to the last
/// element (what the front end does with an index past the end, undefined in SPIR-V), the
/// array zero where nothing was stored.
fn model(n: u32, gid: u32, i: u32) -> u32 {
    let mut arr = vec![0u32; n as usize];
    let at = |x: u32| x.min(n - 1) as usize;
    arr[at(i)] = gid + 1;
    arr[at(i.wrapping_add(2))] = 5000;
    arr[at(i)] ^ arr[at(i.wrapping_add(2))] << 8 ^ arr[0] << 20
}

#[test]
fn a_large_array_written_at_dynamic_indices_lives_in_private_memory() {
    let n = MIN_PRIVATE_BYTES / 4 + 36;
    let f = lift_with(&kernel(n, true), &LiftOptions::default());
    assert_eq!(f.private_bytes, 4 * n);
    assert_eq!(counts(&f), (3, 2, 0));
    // Indices inside, at the end (where `i + 2` runs past it), past it, and negative.
    let input: Vec<u32> = (0..LOCAL * 4)
        .map(|g| match g % 4 {
            0 => g * 3,
            1 => n - 2 + g % 3,
            2 => n + g,
            _ => u32::MAX - g,
        })
        .collect();
    let out = run_lifted(&f, &input);
    let expected: Vec<u32> = (0..input.len() as u32)
        .map(|g| model(n, g, input[g as usize]))
        .collect();
    assert_eq!(out, expected);
}

#[test]
fn small_arrays_and_arrays_only_read_dynamically_stay_promoted() {
    let small = lift_with(
        &kernel(MIN_PRIVATE_BYTES / 4, true),
        &LiftOptions::default(),
    );
    assert_eq!(small.private_bytes, 0);
    assert_eq!(counts(&small).0 + counts(&small).1, 0);
    let read_only = lift_with(&kernel(200, false), &LiftOptions::default());
    assert_eq!(read_only.private_bytes, 0);
}
