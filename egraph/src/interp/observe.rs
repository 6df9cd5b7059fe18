//! A hook into the lockstep executor: an [`Observer`] sees every instruction of a compute run
//! before and after it executes, with the lanes that execute it and their values.
//!
//! Why: analyses that follow a run value by value (the equivalence tests' shadow run, which
//! carries an error bound beside each value) need exactly the interpreter's control flow:
//! which lanes take which arm, how often each loop runs, which values `yield`, `break` and
//! `continue` pass on. Rather than re-implement that walk (and risk it drifting from the
//! definition), they observe the interpreter's own and supply only what they add per
//! instruction. The executor calls the hook only when an observer is attached (one `Option`
//! test per instruction otherwise), so plain runs keep their speed and results.
//!
//! What an observer sees, per instruction and in execution order:
//! - [`Observer::before`] with the lanes about to run it (for `if`, before either arm; for
//!   `loop`, before its body parameters are set);
//! - [`Observer::after`] with the same lanes, once it has run for all of them (for `if` and
//!   `loop`, after the whole construct; for `yield`, `break`, `continue` and `return`, after
//!   their values were passed on).
//!
//! Lanes are indices into the workgroup (the linear local index, x fastest), ascending;
//! [`Run::group`] says which workgroup. An observer's error stops the run with
//! [`InterpError::Observer`](super::InterpError::Observer) naming the instruction.

use super::lanes::LaneValues;
use crate::ir::{Const, Function, Inst, Value};

/// What an observer may read about the run at a hook.
pub struct Run<'r> {
    pub(crate) func: &'r Function,
    pub(crate) vals: &'r LaneValues<'r>,
    pub(crate) group: [u32; 3],
    pub(crate) lanes: usize,
}

impl Run<'_> {
    /// The function being run.
    pub fn func(&self) -> &Function {
        self.func
    }

    /// The value of `v` on `lane`, if defined there.
    pub fn value(&self, v: Value, lane: usize) -> Option<Const> {
        self.vals.get(Inst::from_u32(0), v, lane).ok()
    }

    /// The workgroup being run.
    pub fn group(&self) -> [u32; 3] {
        self.group
    }

    /// Lanes in the workgroup.
    pub fn lanes(&self) -> usize {
        self.lanes
    }
}

/// Follows a run instruction by instruction (see the module docs).
pub trait Observer {
    /// `inst` is about to run on `lanes`.
    fn before(&mut self, run: &Run<'_>, inst: Inst, lanes: &[usize]) -> Result<(), String>;

    /// `inst` has run on `lanes`.
    fn after(&mut self, run: &Run<'_>, inst: Inst, lanes: &[usize]) -> Result<(), String>;
}
