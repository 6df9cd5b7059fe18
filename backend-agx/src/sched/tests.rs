//! The scheduler's behaviour on small functions, and its schedules against the reference
//! implementation's on generated ones.

use super::*;
use crate::isa::{
    DeviceAccess, Dst, FSrc, Lod, MemBase, MemFormat, MemOffset, Precision, RegClass, TexDim,
    TexIndex, TexOp,
};

fn text(m: &MFunction) -> Vec<String> {
    m.insts.iter().map(|i| i.to_string()).collect()
}

#[test]
fn loads_move_above_independent_arithmetic() {
    let mut m = MFunction::default();
    let a = m.new_group(RegClass::R32);
    let b = m.new_group(RegClass::R32);
    let x = m.new_group(RegClass::R32);
    let y = m.new_group(RegClass::R32);
    let add = |dst, src| {
        MInst::Op(Instr::Fadd {
            prec: Precision::F32,
            dst: Dst::new(dst),
            sat: false,
            a: FSrc::reg(src),
            b: FSrc::imm(0x30),
        })
    };
    m.push(MInst::Op(Instr::MovImm {
        dst: Dst::new(a),
        imm: 1,
    }));
    m.push(add(b, a));
    m.push(MInst::Op(Instr::DeviceLoad(DeviceAccess {
        data: x,
        base: MemBase::Uniform(0),
        offset: MemOffset::Imm(0),
        format: MemFormat::I32,
        mask: 1,
        shift: 0,
        slot: 0,
    })));
    m.push(add(y, x));
    m.push(MInst::Op(Instr::DeviceStore(DeviceAccess {
        data: y,
        base: MemBase::Uniform(2),
        offset: MemOffset::Imm(0),
        format: MemFormat::I32,
        mask: 1,
        shift: 0,
        slot: 0,
    })));
    m.push(MInst::Op(Instr::DeviceStore(DeviceAccess {
        data: b,
        base: MemBase::Uniform(2),
        offset: MemOffset::Imm(1),
        format: MemFormat::I32,
        mask: 1,
        shift: 0,
        slot: 0,
    })));
    schedule(&mut m);
    let t = text(&m);
    // The load goes first; the stores keep their order.
    assert!(t[0].starts_with("device_load"), "{t:?}");
    let s1 = t
        .iter()
        .position(|l| l.contains("device_store %3"))
        .unwrap_or(99);
    let s2 = t
        .iter()
        .position(|l| l.contains("device_store %1"))
        .unwrap_or(0);
    assert!(s1 < s2, "{t:?}");
}

#[test]
fn an_atomic_keeps_a_later_load_after_it() {
    // a = 1; atomic add (no result) of a; z = load; y = z + 1.0: the load is ready before
    // the atomic (which waits for `a`) and heads the longer chain, so only the rule that an
    // atomic reads and writes memory keeps it from moving up past the atomic.
    let mut m = MFunction::default();
    let a = m.new_group(RegClass::R32);
    let z = m.new_group(RegClass::R32);
    let y = m.new_group(RegClass::R32);
    m.push(MInst::Op(Instr::MovImm {
        dst: Dst::new(a),
        imm: 1,
    }));
    m.push(MInst::Op(Instr::DeviceAtomic(crate::isa::DeviceAtomic {
        op: crate::isa::AtomicOpc::Add,
        dst: None,
        value: a,
        base: MemBase::Uniform(0),
        offset: MemOffset::Imm(0),
        slot: 0,
    })));
    m.push(MInst::Op(Instr::DeviceLoad(DeviceAccess {
        data: z,
        base: MemBase::Uniform(0),
        offset: MemOffset::Imm(0),
        format: MemFormat::I32,
        mask: 1,
        shift: 0,
        slot: 0,
    })));
    m.push(MInst::Op(Instr::Fadd {
        prec: Precision::F32,
        dst: Dst::new(y),
        sat: false,
        a: FSrc::reg(z),
        b: FSrc::imm(0x30),
    }));
    schedule(&mut m);
    let t = text(&m);
    let at = |p: &str| t.iter().position(|l| l.starts_with(p)).unwrap_or(99);
    assert!(at("atomic") < at("device_load"), "{t:?}");
}

/// `n` independent chains `c = imm; t = texture_load(c); y = t + 1.0; store y`: a latency
/// scheduler moves the texture loads (80 cycles) to the top, where all `n` results would
/// be live.
fn texture_chains(n: u16) -> MFunction {
    let mut m = MFunction::default();
    for i in 0..n {
        let c = m.new_group(RegClass::R32);
        let t = m.new_group(RegClass::R32);
        let y = m.new_group(RegClass::R32);
        m.op(Instr::MovImm {
            dst: Dst::new(c),
            imm: u32::from(i),
        });
        m.op(Instr::TextureLoad(TexOp {
            dst: t,
            coords: c,
            coords_discard: false,
            texture: TexIndex::Imm(0),
            sampler: TexIndex::Imm(0),
            dim: TexDim::D1,
            lod: Lod::Auto,
            extra: None,
            mask: 1,
            slot: 0,
            gather: None,
        }));
        m.op(Instr::Fadd {
            prec: Precision::F32,
            dst: Dst::new(y),
            sat: false,
            a: FSrc::reg(t),
            b: FSrc::imm(0x30),
        });
        m.op(Instr::DeviceStore(DeviceAccess {
            data: y,
            base: MemBase::Uniform(0),
            offset: MemOffset::Imm(i as i16),
            format: MemFormat::I32,
            mask: 1,
            shift: 0,
            slot: 0,
        }));
    }
    m
}

#[test]
fn scheduling_keeps_the_occupancy_of_the_selected_order() {
    // In order, one chain at a time needs 2 halves: the occupancy step up to 104 halves
    // (1024 threads). 80 texture results in flight would need 160 halves (640 threads).
    let mut m = texture_chains(80);
    schedule(&mut m);
    let t = text(&m);
    // Within the step, the scheduler still hides latency: many loads go first.
    let loads_first = t.iter().take_while(|l| !l.starts_with("fadd")).count();
    assert!(loads_first > 20, "{t:?}");
    let alloc = crate::regalloc::allocate(m, 256).expect("allocates");
    assert!(alloc.gpr_halves <= 104, "{} halves", alloc.gpr_halves);
    assert_eq!(crate::regalloc::occupancy(alloc.gpr_halves), 1024);
}

/// Two chains `x = imm; y = x + 1.0; z = y + 1.0; store z`, inside a loop when `looped`.
fn two_alu_chains(looped: bool) -> MFunction {
    let mut m = MFunction::default();
    if looped {
        m.push(MInst::Loop);
    }
    for i in 0..2 {
        let x = m.new_group(RegClass::R32);
        let y = m.new_group(RegClass::R32);
        let z = m.new_group(RegClass::R32);
        m.op(Instr::MovImm {
            dst: Dst::new(x),
            imm: 1,
        });
        for (dst, src) in [(y, x), (z, y)] {
            m.op(Instr::Fadd {
                prec: Precision::F32,
                dst: Dst::new(dst),
                sat: false,
                a: FSrc::reg(src),
                b: FSrc::imm(0x30),
            });
        }
        m.op(Instr::DeviceStore(DeviceAccess {
            data: z,
            base: MemBase::Uniform(0),
            offset: MemOffset::Imm(i),
            format: MemFormat::I32,
            mask: 1,
            shift: 0,
            slot: 0,
        }));
    }
    if looped {
        m.push(MInst::Break);
        m.push(MInst::EndLoop);
    }
    m
}

#[test]
fn alu_chains_interleave_only_inside_loops() {
    // Straight-line, the chains need one register at a time and run one after the other;
    // in a loop, the second chain's `mov_imm` fills the wait for the first `mov_imm`.
    for (looped, second) in [(false, "fadd"), (true, "mov_imm")] {
        let mut m = two_alu_chains(looped);
        schedule(&mut m);
        let t = text(&m);
        let first = t.iter().position(|l| l.starts_with("mov_imm")).unwrap_or(0);
        let next = t.get(first + 1).map(String::as_str).unwrap_or("");
        assert!(next.starts_with(second), "looped {looped}: {t:?}");
    }
}

#[test]
fn the_budget_is_the_top_of_the_occupancy_step() {
    assert_eq!(register_budget(2, false), 104 - ALIGNMENT_SLACK);
    // r0 is not for values when the execution-mask stack is in use.
    assert_eq!(register_budget(2, true), 104 - ALIGNMENT_SLACK - 2);
    // 130 halves and the slack are within the 136-halves step (768 threads).
    assert_eq!(register_budget(130, false), 136 - ALIGNMENT_SLACK);
    // Never below what the selected order needs.
    assert_eq!(register_budget(254, false), 254);
}

/// The machine function the backend schedules for `func`, optimized for the G13 first when
/// `optimized`.
fn selected(func: &agxc_egraph::ir::Function, optimized: bool) -> MFunction {
    use agxc_egraph::opt::{optimize, OptOptions};
    let opt;
    let func = if optimized {
        opt = optimize(
            func,
            &crate::target::G13Target::new(),
            &OptOptions::default(),
        )
        .expect("generated functions optimize");
        &opt.func
    } else {
        func
    };
    let mut abi = crate::Abi::for_function(func).expect("ABI");
    let mut m = crate::isel::select(func, &abi).expect("selects");
    crate::collect::coalesce_runs(&mut m);
    crate::promote::promote_constants(&mut m, &mut abi);
    m
}

fn same_as_reference(m: &MFunction, what: &str) {
    for (policy, sliced) in [
        (Policy::Occupancy, false),
        (Policy::Pressure, false),
        (Policy::Pressure, true),
    ] {
        let mut fast = m.clone();
        match Prepared::sliced(m).filter(|_| sliced) {
            Some(p) => p.apply(&mut fast, policy),
            None => schedule_with(&mut fast, policy),
        }
        let mut slow = m.clone();
        reference::schedule(&mut slow, policy, sliced);
        assert_eq!(fast.insts.len(), slow.insts.len(), "{what}");
        for (i, (a, b)) in fast.insts.iter().zip(&slow.insts).enumerate() {
            assert_eq!(
                a, b,
                "{what} {policy:?}: first difference at instruction {i}"
            );
        }
    }
}

#[test]
fn schedules_equal_the_reference_implementations() {
    use agxc_egraph::opt::synth;
    type Generator = fn(usize, u64) -> agxc_egraph::ir::Function;
    let kinds: [(&str, Generator); 3] = [
        ("straight", synth::straight_line),
        ("loops", synth::loop_heavy),
        ("shader", synth::shader_like),
    ];
    for (kind, generate) in kinds {
        for (n, seed) in [(90, 1), (200, 2), (700, 3), (1200, 4), (3000, 5)] {
            let f = generate(n, seed);
            for optimized in [false, true] {
                let m = selected(&f, optimized);
                same_as_reference(&m, &format!("{kind} {n} seed {seed} optimized {optimized}"));
            }
        }
    }
    same_as_reference(&texture_chains(80), "texture chains");
    for looped in [false, true] {
        same_as_reference(&two_alu_chains(looped), "ALU chains");
    }
}

/// `n` chains `c = imm; t = texture_load(c); y = t + 1.0; store y` selected stage by stage:
/// every `mov_imm`, then every texture load, then every add, then every store. In this order
/// all `n` results are live at once (`2n` halves); one chain at a time needs 4. (The list
/// scheduler ranks what feeds a texture load as never waiting, in both policies, so its
/// pressure-first order hoists the `mov_imm`s too and keeps that peak.)
fn texture_loads_first(n: u16) -> MFunction {
    let chains = texture_chains(n);
    let mut m = MFunction {
        groups: chains.groups.clone(),
        ..MFunction::default()
    };
    for stage in 0..4 {
        for chain in chains.insts.chunks(4) {
            m.push(chain[stage]);
        }
    }
    m
}

#[test]
fn compilation_keeps_the_schedule_with_fewer_registers() {
    for m in [
        texture_loads_first(16),
        texture_chains(16),
        two_alu_chains(true),
    ] {
        let scheduled = |policy| {
            let mut s = m.clone();
            schedule_with(&mut s, policy);
            let a = crate::regalloc::allocate(s.clone(), 256).expect("allocates");
            (s, a.gpr_halves)
        };
        // The first of the fewest registers, in the order the compiler tries them.
        let mut expected = scheduled(Policy::Occupancy);
        for policy in [Policy::Pressure, Policy::PressureBottomUp] {
            let candidate = scheduled(policy);
            if candidate.1 < expected.1 {
                expected = candidate;
            }
        }
        let (kept, a) = crate::pipeline::schedule_and_allocate(m.clone(), 256).expect("allocates");
        assert_eq!(a.gpr_halves, expected.1);
        assert_eq!(kept.insts, expected.0.insts);
    }
}

/// Every position of `order` after those of the instructions it depends on.
fn respects_dependences(g: &graph::BlockGraph, order: &[usize]) -> bool {
    let mut at = vec![usize::MAX; g.len()];
    for (i, &k) in order.iter().enumerate() {
        at[k] = i;
    }
    at.iter().all(|&i| i != usize::MAX)
        && (0..g.len()).all(|k| g.succs.row(k).iter().all(|&(s, _)| at[k] < at[s as usize]))
}

#[test]
fn the_bottom_up_order_respects_every_dependence() {
    use agxc_egraph::opt::synth;
    type Generator = fn(usize, u64) -> agxc_egraph::ir::Function;
    let kinds: [(&str, Generator); 3] = [
        ("straight", synth::straight_line),
        ("loops", synth::loop_heavy),
        ("shader", synth::shader_like),
    ];
    for (kind, generate) in kinds {
        for (n, seed) in [(200, 7), (1200, 8)] {
            for optimized in [false, true] {
                let m = selected(&generate(n, seed), optimized);
                for g in block_graphs(&m, false) {
                    let order = g.bottom_up_order();
                    assert!(respects_dependences(&g, &order), "{kind} {n} {optimized}");
                }
            }
        }
    }
}

/// `texture_loads_first`'s shape with `texture_sample`s, which no store orders: every
/// coordinate, then every sample, every add, every store.
fn samples_first(n: u16) -> MFunction {
    let mut m = texture_loads_first(n);
    for inst in &mut m.insts {
        if let MInst::Op(Instr::TextureLoad(t)) = *inst {
            *inst = MInst::Op(Instr::TextureSample(t));
        }
    }
    m
}

/// Samples selected before all their uses: scheduled from the end, each sinks to its chain, so
/// one chain at a time is live (4 halves: its coordinate or result, then its sum), where the
/// selected order keeps all 16 results live (32 halves).
#[test]
fn the_bottom_up_order_sinks_samples_to_their_uses() {
    let m = samples_first(16);
    let graphs = block_graphs(&m, false);
    assert_eq!(graphs.len(), 1);
    let g = &graphs[0];
    assert!(g.peak(&g.original_order()) >= 32);
    let bottom_up = g.bottom_up_order();
    assert!(respects_dependences(g, &bottom_up));
    assert!(g.peak(&bottom_up) <= 4, "peak {}", g.peak(&bottom_up));
    let mut s = m.clone();
    schedule_with(&mut s, Policy::PressureBottomUp);
    let a = crate::regalloc::allocate(s, 256).expect("allocates");
    assert!(a.gpr_halves <= 4, "{} halves", a.gpr_halves);
}

/// A fragment output vector whose two components are computed one after the other: counted
/// whole, the vector holds four halves from its first component's write, so the second
/// component's input raises the peak to six; counted by components (`Prepared::sliced`), the
/// first component holds two halves only and the peak is four. A function with no vector
/// built piecewise has no sliced model.
#[test]
fn a_vector_built_piecewise_counts_by_its_components() {
    let mut m = MFunction::default();
    let v = m.new_group(RegClass::Vec32(2));
    let a = m.new_group(RegClass::R32);
    let c = m.new_group(RegClass::R32);
    let add = |dst: VReg, src: VReg| {
        MInst::Op(Instr::Fadd {
            prec: Precision::F32,
            dst: Dst::new(dst),
            sat: false,
            a: FSrc::reg(src),
            b: FSrc::imm(0x30),
        })
    };
    m.push(MInst::Op(Instr::MovImm {
        dst: Dst::new(a),
        imm: 1,
    }));
    m.push(add(v.word(0), a));
    m.push(MInst::Op(Instr::MovImm {
        dst: Dst::new(c),
        imm: 2,
    }));
    m.push(add(v.word(1), c));
    m.push(MInst::Op(Instr::StTile {
        src: v,
        rt: 0,
        mask: 0b0011,
        format: MemFormat::I32,
    }));
    let peak = |graphs: Vec<BlockGraph>| graphs[0].peak(&graphs[0].original_order());
    assert_eq!(peak(block_graphs(&m, false)), 6);
    assert_eq!(peak(block_graphs(&m, true)), 4);
    assert!(Prepared::sliced(&m).is_some());

    let mut whole = MFunction::default();
    let w = whole.new_group(RegClass::Vec32(2));
    whole.push(MInst::Op(Instr::MovImm {
        dst: Dst::new(w.word(0)),
        imm: 1,
    }));
    whole.push(MInst::Op(Instr::StTile {
        src: w,
        rt: 0,
        mask: 0b0011,
        format: MemFormat::I32,
    }));
    assert!(Prepared::sliced(&whole).is_none());
}
