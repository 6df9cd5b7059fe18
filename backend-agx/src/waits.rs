//! Wait insertion (docs/g13.md, "wait"): device loads, device atomics and texture instructions
//! complete asynchronously on one of two wait slots, and their destination registers may be
//! touched only after `wait <slot>`.
//!
//! Walking the lowered code in order, the pass keeps the halves each slot's loads will write:
//! - a load goes to the slot with fewer pending loads (slot 0 on a tie), after a `wait` on it
//!   if it already has [`MAX_PENDING`];
//! - an instruction that reads or writes a pending half (read-after-write, write-after-write)
//!   first waits on that half's slot, which completes every load of the slot;
//! - at block boundaries (labels, jumps, execution-mask instructions, `stop`) and at barriers,
//!   every slot with pending loads is waited on, so no load is pending across control flow.

use crate::cflow::Lowered;
use crate::isa::{Instr, PReg};

/// Loads pending on one slot at most.
pub const MAX_PENDING: u32 = 8;

#[derive(Default)]
struct Slot {
    halves: Vec<u32>,
    loads: u32,
}

/// Assigns wait slots to loads and inserts the waits.
pub fn insert(code: Vec<Lowered>) -> Vec<Lowered> {
    let mut out = Vec::with_capacity(code.len() + code.len() / 4);
    let mut slots = [Slot::default(), Slot::default()];
    let drain = |out: &mut Vec<Lowered>, slots: &mut [Slot; 2]| {
        for (n, s) in slots.iter_mut().enumerate() {
            if s.loads > 0 {
                out.push(Lowered::Instr(Instr::Wait { slot: n as u8 }));
                *s = Slot::default();
            }
        }
    };
    for item in code {
        let mut instr = match item {
            Lowered::Label(_) => {
                drain(&mut out, &mut slots);
                out.push(item);
                continue;
            }
            Lowered::Instr(i) => i,
        };
        if is_boundary(&instr) {
            drain(&mut out, &mut slots);
            out.push(Lowered::Instr(instr));
            continue;
        }
        wait_for_hazards(&Lowered::Instr(instr), &mut out, &mut slots);
        if let Some(slot) = load_slot_mut(&mut instr) {
            let n = if slots[1].loads < slots[0].loads {
                1
            } else {
                0
            };
            if slots[n].loads >= MAX_PENDING {
                out.push(Lowered::Instr(Instr::Wait { slot: n as u8 }));
                slots[n] = Slot::default();
            }
            *slot = n as u8;
            instr.for_each_def(|r| slots[n].halves.extend(r.halves()));
            slots[n].loads += 1;
        }
        out.push(Lowered::Instr(instr));
    }
    out
}

/// Waits on the slots holding a pending register `item` reads or writes.
fn wait_for_hazards(item: &Lowered, out: &mut Vec<Lowered>, slots: &mut [Slot; 2]) {
    let mut touched = Vec::new();
    item.for_each_use(|r| touched.push(*r));
    item.for_each_def(|r| touched.push(*r));
    for (n, s) in slots.iter_mut().enumerate() {
        let hit = touched
            .iter()
            .any(|r: &PReg| r.halves().any(|h| s.halves.contains(&h)));
        if hit {
            out.push(Lowered::Instr(Instr::Wait { slot: n as u8 }));
            *s = Slot::default();
        }
    }
}

/// Instructions that end a straight-line block or synchronise.
fn is_boundary(i: &Instr<PReg>) -> bool {
    matches!(
        i,
        Instr::Stop
            | Instr::Trap
            | Instr::JmpExecAny { .. }
            | Instr::JmpExecNone { .. }
            | Instr::Call { .. }
            | Instr::Ret { .. }
            | Instr::PopExec { .. }
            | Instr::ExecStack { .. }
            | Instr::ThreadgroupBarrier
    )
}

/// The wait slot field of an asynchronous load.
fn load_slot_mut(i: &mut Instr<PReg>) -> Option<&mut u8> {
    match i {
        Instr::DeviceLoad(a) => Some(&mut a.slot),
        Instr::DeviceAtomic(a) => Some(&mut a.slot),
        Instr::TextureSample(t) | Instr::TextureLoad(t) => Some(&mut t.slot),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{DeviceAccess, Dst, FSrc, MemBase, MemFormat, MemOffset, Precision};

    fn load(dst: u16) -> Lowered {
        Lowered::Instr(Instr::DeviceLoad(DeviceAccess {
            data: PReg::r32(dst),
            base: MemBase::Uniform(0),
            offset: MemOffset::Imm(0),
            format: MemFormat::I32,
            mask: 1,
            shift: 0,
            slot: 0,
        }))
    }

    fn add(d: u16, a: u16) -> Lowered {
        Lowered::Instr(Instr::Fadd {
            prec: Precision::F32,
            dst: Dst::new(PReg::r32(d)),
            sat: false,
            a: FSrc::reg(PReg::r32(a)),
            b: FSrc::reg(PReg::r32(a)),
        })
    }

    fn slots_and_waits(code: &[Lowered]) -> Vec<String> {
        code.iter()
            .map(|l| match l {
                Lowered::Instr(Instr::Wait { slot }) => format!("wait {slot}"),
                Lowered::Instr(Instr::DeviceLoad(a)) => format!("load {}", a.slot),
                Lowered::Instr(Instr::Stop) => "stop".into(),
                _ => "alu".into(),
            })
            .collect()
    }

    #[test]
    fn loads_alternate_slots_and_wait_before_use() {
        let code = vec![
            load(1),
            load(2),
            add(3, 2),
            add(4, 1),
            Lowered::Instr(Instr::Stop),
        ];
        let out = insert(code);
        assert_eq!(
            slots_and_waits(&out),
            ["load 0", "load 1", "wait 1", "alu", "wait 0", "alu", "stop"]
        );
    }

    #[test]
    fn at_most_eight_loads_per_slot() {
        let mut code: Vec<Lowered> = (0..17).map(|i| load(i + 1)).collect();
        code.push(Lowered::Instr(Instr::Stop));
        let out = insert(code);
        let waits = slots_and_waits(&out);
        // 8 loads on each slot, then the 17th waits for slot 0 first.
        assert_eq!(waits[16], "wait 0");
        assert_eq!(waits[17], "load 0");
        assert_eq!(&waits[18..], ["wait 0", "wait 1", "stop"]);
    }

    #[test]
    fn device_atomics_take_a_slot_and_their_result_is_waited_for() {
        let atomic = |dst: Option<u16>| {
            Lowered::Instr(Instr::DeviceAtomic(crate::isa::DeviceAtomic {
                op: crate::isa::AtomicOpc::Add,
                dst: dst.map(PReg::r32),
                value: PReg::r32(9),
                base: MemBase::Uniform(0),
                offset: MemOffset::Imm(0),
                slot: 0,
            }))
        };
        // A load takes slot 0, the atomic slot 1; reading the atomic's result (r2) waits on
        // slot 1 only, and the slot-0 load is drained at `stop`.
        let code = vec![
            load(1),
            atomic(Some(2)),
            add(3, 2),
            Lowered::Instr(Instr::Stop),
        ];
        let out: Vec<String> = insert(code)
            .iter()
            .map(|l| match l {
                Lowered::Instr(Instr::DeviceAtomic(a)) => format!("atomic {}", a.slot),
                other => slots_and_waits(std::slice::from_ref(other)).remove(0),
            })
            .collect();
        assert_eq!(
            out,
            ["load 0", "atomic 1", "wait 1", "alu", "wait 0", "stop"]
        );
    }
}
