//! How `OpSwitch` is lifted: one compare per literal, fall-through without flags.

use super::kernel::{lift_with, run_lifted, Kernel};
use crate::spirv::LiftOptions;
use agxc_egraph::ir::{Function, Op, Signature};
use agxc_egraph::opt::{optimize, GenericTarget, OptOptions};
use rspirv::dr::Operand;
use spirv::{SelectionControl, StorageClass};

/// ```text
/// r = 0
/// switch (x % 8) {
/// case 0: r += 100;          // falls into case 1
/// case 1: r += 10; break;
/// case 2: r = 7;             // falls into case 3
/// case 3: r += 1; break;
/// default: r = 5;
/// }
/// out[gid] = r
/// ```
fn fall_through_switch() -> Vec<u32> {
    let mut k = Kernel::new();
    let [c0, c1, c2, c3, dflt, merge] = [(); 6].map(|_| k.b.id());
    let ptr = k.b.type_pointer(None, StorageClass::Function, k.uint);
    let var = k.b.variable(ptr, None, StorageClass::Function, None);
    let (zero, eight) = (k.u32(0), k.u32(8));
    k.b.store(var, zero, None, []).unwrap();
    let x = k.load_in(k.gid);
    let sel = k.b.u_mod(k.uint, None, x, eight).unwrap();
    k.b.selection_merge(merge, SelectionControl::NONE).unwrap();
    k.b.switch(
        sel,
        dflt,
        [
            (Operand::LiteralBit32(0), c0),
            (Operand::LiteralBit32(1), c1),
            (Operand::LiteralBit32(2), c2),
            (Operand::LiteralBit32(3), c3),
        ],
    )
    .unwrap();
    let add = |k: &mut Kernel, n: u32| {
        let v = k.b.load(k.uint, None, var, None, []).unwrap();
        let c = k.u32(n);
        let s = k.b.i_add(k.uint, None, v, c).unwrap();
        k.b.store(var, s, None, []).unwrap();
    };
    let set = |k: &mut Kernel, n: u32| {
        let c = k.u32(n);
        k.b.store(var, c, None, []).unwrap();
    };
    k.b.begin_block(Some(c0)).unwrap();
    add(&mut k, 100);
    k.b.branch(c1).unwrap();
    k.b.begin_block(Some(c1)).unwrap();
    add(&mut k, 10);
    k.b.branch(merge).unwrap();
    k.b.begin_block(Some(c2)).unwrap();
    set(&mut k, 7);
    k.b.branch(c3).unwrap();
    k.b.begin_block(Some(c3)).unwrap();
    add(&mut k, 1);
    k.b.branch(merge).unwrap();
    k.b.begin_block(Some(dflt)).unwrap();
    set(&mut k, 5);
    k.b.branch(merge).unwrap();
    k.b.begin_block(Some(merge)).unwrap();
    let r = k.b.load(k.uint, None, var, None, []).unwrap();
    k.store_out(k.gid, r);
    k.finish()
}

fn comparisons(f: &Function) -> usize {
    let mut n = 0;
    f.for_each_inst(|_, i| {
        if let Op::Pure(p) = f.inst(i).op {
            n += matches!(p.signature(), Signature::Compare(_)) as usize;
        }
    });
    n
}

/// `if`s yielding a bool: the fall-through flags the lifting no longer makes.
fn bool_ifs(f: &Function) -> usize {
    let mut n = 0;
    f.for_each_inst(|_, i| {
        let d = f.inst(i);
        n += (d.op == Op::If
            && d.results
                .iter()
                .any(|&r| f.value_type(r) == agxc_egraph::ir::Type::Bool)) as usize;
    });
    n
}

#[test]
fn four_cases_with_fall_through_take_one_compare_each_and_no_flags() {
    let func = lift_with(&fall_through_switch(), &LiftOptions::default());
    assert_eq!(comparisons(&func), 4, "{func}");
    assert_eq!(bool_ifs(&func), 0, "{func}");
    let input: Vec<u32> = (0..64).collect();
    let out = run_lifted(&func, &input);
    for (x, got) in input.iter().zip(&out) {
        let want = match x % 8 {
            0 => 110,
            1 => 10,
            2 => 8,
            3 => 1,
            _ => 5,
        };
        assert_eq!(*got, want, "selector {}", x % 8);
    }
    // After the control-flow passes and saturation: no loop, no more compares, same results.
    let opt = optimize(&func, &GenericTarget::new(), &OptOptions::default()).unwrap();
    let mut loops = 0;
    opt.func
        .for_each_inst(|_, i| loops += (opt.func.inst(i).op == Op::Loop) as usize);
    assert_eq!(loops, 0, "{}", opt.func);
    assert!(comparisons(&opt.func) <= 4, "{}", opt.func);
    assert_eq!(bool_ifs(&opt.func), 0, "{}", opt.func);
    assert_eq!(run_lifted(&opt.func, &input), out);
}

#[test]
fn the_default_tests_only_the_literals_after_it() {
    // Default first in the order, falling into case 1: it must not run for selector 1.
    let mut k = Kernel::new();
    let [c1, dflt, merge] = [(); 3].map(|_| k.b.id());
    let ptr = k.b.type_pointer(None, StorageClass::Function, k.uint);
    let var = k.b.variable(ptr, None, StorageClass::Function, None);
    let (zero, four) = (k.u32(0), k.u32(4));
    k.b.store(var, zero, None, []).unwrap();
    let x = k.load_in(k.gid);
    let sel = k.b.u_mod(k.uint, None, x, four).unwrap();
    k.b.selection_merge(merge, SelectionControl::NONE).unwrap();
    k.b.switch(
        sel,
        dflt,
        [
            (Operand::LiteralBit32(1), c1),
            (Operand::LiteralBit32(2), merge),
        ],
    )
    .unwrap();
    k.b.begin_block(Some(dflt)).unwrap();
    let c = k.u32(30);
    k.b.store(var, c, None, []).unwrap();
    k.b.branch(c1).unwrap();
    k.b.begin_block(Some(c1)).unwrap();
    let v = k.b.load(k.uint, None, var, None, []).unwrap();
    let one = k.u32(1);
    let s = k.b.i_add(k.uint, None, v, one).unwrap();
    k.b.store(var, s, None, []).unwrap();
    k.b.branch(merge).unwrap();
    k.b.begin_block(Some(merge)).unwrap();
    let r = k.b.load(k.uint, None, var, None, []).unwrap();
    k.store_out(k.gid, r);
    let func = lift_with(&k.finish(), &LiftOptions::default());
    let input: Vec<u32> = (0..32).collect();
    let out = run_lifted(&func, &input);
    for (x, got) in input.iter().zip(&out) {
        let want = match x % 4 {
            1 => 1,
            2 => 0,
            _ => 31,
        };
        assert_eq!(*got, want, "selector {}", x % 4);
    }
    let opt = optimize(&func, &GenericTarget::new(), &OptOptions::default()).unwrap();
    assert_eq!(run_lifted(&opt.func, &input), out);
}
