//! The timing model of a straight run compiled to host code.
//!
//! `Timing::issue_run` walks a run's instructions through the SIMD-group's ready times in
//! memory: each instruction loads the ready times it reads, some just stored by the previous
//! instruction, so the walk is a chain of store-to-load round trips (measured in session 9:
//! about a fifth of `agxc run` of `benches/sim_speed/alu_hash_noise`, `perf annotate`). The
//! function built here knows the run's instructions: it computes the run's final issue time,
//! end and written ready times directly from the start-of-run values they depend on (see
//! [`build`]), with the result `issue_run` gives (the unit tests compare the two on every test
//! program through the engines' comparison of the final state).
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

/// A value of the timing state as the run starts: the issue time, the end, a wait slot's
/// completion time, or the ready time at a byte offset of the ready-time array.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Input {
    Next,
    End,
    Slot(i32),
    Ready(i32),
}

/// A time as the maximum of start-of-run values plus constants (`input -> constant`): every
/// step of the model is a maximum or a constant sum, and `max(a, b) + c = max(a + c, b + c)`
/// on the model's `u64`s (cycle counts, far from overflowing), so every time the run computes
/// has this form, with the constants known when the run is compiled.
type Sym = BTreeMap<Input, u64>;

fn max(a: &Sym, b: &Sym) -> Sym {
    let mut out = a.clone();
    for (&k, &v) in b {
        let e = out.entry(k).or_insert(v);
        *e = (*e).max(v);
    }
    out
}

fn plus(a: &Sym, c: u32) -> Sym {
    a.iter().map(|(&k, &v)| (k, v + u64::from(c))).collect()
}

/// The offset of a register-list entry in the ready-time array, as `Timing::issue_run` indexes
/// it.
fn slot(i: u8) -> i32 {
    i32::from(i.min(129)) * 8
}

/// Builds the timing function of `run` (a straight run's [`Issue`]s, in order).
///
/// The run is evaluated symbolically here ([`Sym`]), so the function computes only the final
/// issue time, end and ready times of the registers the run writes, each as a maximum of a few
/// start-of-run values plus constants: no chain through the run's instructions is left.
pub(super) fn build(b: &mut FunctionBuilder<'_>, run: &[Issue]) {
    let one = |i: Input| Sym::from([(i, 0)]);
    let mut next = one(Input::Next);
    let mut end = one(Input::End);
    // Ready times the run has written, by byte offset, in the order first written.
    let mut times: BTreeMap<i32, Sym> = BTreeMap::new();
    let mut written: Vec<i32> = Vec::new();
    for x in run {
        let mut t = next.clone();
        for &r in &x.reads {
            let at = slot(r);
            t = match times.get(&at) {
                Some(v) => max(&t, v),
                None => max(&t, &one(Input::Ready(at))),
            };
        }
        let done = plus(&t, x.cost.latency);
        for &w in &x.writes {
            let at = slot(w);
            times.insert(at, done.clone());
            if !written.contains(&at) {
                written.push(at);
            }
        }
        next = plus(&t, x.cost.interval);
        end = max(&max(&end, &done), &next);
        if x.wait != Issue::NO_WAIT {
            next = max(&next, &one(Input::Slot(16 + 8 * i32::from(x.wait & 1))));
            end = max(&end, &next);
        }
    }

    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let params = b.block_params(entry).to_vec();
    let (ready, io) = (params[0], params[1]);
    let mut flags = MemFlagsData::new();
    flags.set_notrap();
    // Every input is loaded before anything is stored (outputs overwrite inputs).
    let mut inputs: BTreeMap<Input, Value> = BTreeMap::new();
    let outputs = written.iter().map(|at| &times[at]).chain([&next, &end]);
    for sym in outputs.clone() {
        for &k in sym.keys() {
            if inputs.contains_key(&k) {
                continue;
            }
            let v = match k {
                Input::Next => b.ins().load(I64, flags, io, 0),
                Input::End => b.ins().load(I64, flags, io, 8),
                Input::Slot(at) => b.ins().load(I64, flags, io, at),
                Input::Ready(at) => b.ins().load(I64, flags, ready, at),
            };
            inputs.insert(k, v);
        }
    }
    let emit = |b: &mut FunctionBuilder<'_>, sym: &Sym| -> Value {
        let mut terms = sym.iter().map(|(k, &c)| {
            let v = inputs[k];
            if c == 0 {
                v
            } else {
                b.ins().iadd_imm_u(v, c as i64)
            }
        });
        let first = terms.next();
        let rest: Vec<Value> = terms.collect();
        // A sym always holds at least one input (each starts from one and only grows).
        let mut acc = first.unwrap_or_else(|| b.ins().iconst(I64, 0));
        for v in rest {
            acc = b.ins().umax(acc, v);
        }
        acc
    };
    let values: Vec<Value> = outputs.map(|sym| emit(b, sym)).collect();
    for (at, &v) in written.iter().zip(&values) {
        b.ins().store(flags, v, ready, *at);
    }
    let n = written.len();
    b.ins().store(flags, values[n], io, 0);
    b.ins().store(flags, values[n + 1], io, 8);
    b.ins().return_(&[]);
    b.seal_all_blocks();
}
