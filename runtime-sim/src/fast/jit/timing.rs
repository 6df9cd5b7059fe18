//! The timing model of a straight run compiled to host code.
//!
//! `Timing::issue_run` walks a run's instructions through the SIMD-group's ready times in
//! memory: each instruction loads the ready times it reads, some just stored by the previous
//! instruction, so the walk is a chain of store-to-load round trips (measured in session 9:
//! about a fifth of `agxc run` of `benches/sim_speed/alu_hash_noise`, `perf annotate`). The
//! function built here does the same walk with the run's instructions known: each ready time
//! is loaded once, kept in an SSA value while the run's instructions update it, and stored
//! once at the end; the issue time and the end are values too. It computes exactly what
//! `issue_run` computes: the same maxima and sums on the same `u64`s, in the same order
//! (the unit tests compare the two on every test program through the engines' comparison).
//!
//! The function takes the ready-time array (`Timing`'s 130 entries: the 128 registers, the
//! never-written `NO_READ` entry and the `NO_WRITE` sink) and a four-word block holding the
//! issue time, the end and the two wait slots' completion times; it writes back the ready
//! times the run writes, the issue time and the end.

use std::collections::BTreeMap;

use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Value};
use cranelift_frontend::FunctionBuilder;

use crate::timing::Issue;

/// The index `Timing::issue_run` uses for a register-list entry.
fn slot(i: u8) -> i32 {
    i32::from(i.min(129)) * 8
}

/// Builds the timing function of `run` (a straight run's [`Issue`]s, in order).
pub(super) fn build(b: &mut FunctionBuilder<'_>, run: &[Issue]) {
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let params = b.block_params(entry).to_vec();
    let (ready, io) = (params[0], params[1]);
    let mut flags = MemFlagsData::new();
    flags.set_notrap();

    let mut next = b.ins().load(I64, flags, io, 0);
    let mut end = b.ins().load(I64, flags, io, 8);
    let mut slots: [Option<Value>; 2] = [None, None];
    // Ready times by byte offset, loaded at first use; `dirty`: written by the run.
    let mut times: BTreeMap<i32, Value> = BTreeMap::new();
    let mut dirty: Vec<i32> = Vec::new();
    for x in run {
        let mut t = next;
        for &r in &x.reads {
            let at = slot(r);
            let v = *times
                .entry(at)
                .or_insert_with(|| b.ins().load(I64, flags, ready, at));
            t = b.ins().umax(t, v);
        }
        let done = b.ins().iadd_imm_u(t, i64::from(x.cost.latency));
        for &w in &x.writes {
            let at = slot(w);
            times.insert(at, done);
            if !dirty.contains(&at) {
                dirty.push(at);
            }
        }
        next = b.ins().iadd_imm_u(t, i64::from(x.cost.interval));
        let later = b.ins().umax(done, next);
        end = b.ins().umax(end, later);
        if x.wait != Issue::NO_WAIT {
            let s = usize::from(x.wait & 1);
            let done =
                *slots[s].get_or_insert_with(|| b.ins().load(I64, flags, io, 16 + 8 * s as i32));
            next = b.ins().umax(next, done);
            end = b.ins().umax(end, next);
        }
    }
    for at in dirty {
        b.ins().store(flags, times[&at], ready, at);
    }
    b.ins().store(flags, next, io, 0);
    b.ins().store(flags, end, io, 8);
    b.ins().return_(&[]);
    b.seal_all_blocks();
}
