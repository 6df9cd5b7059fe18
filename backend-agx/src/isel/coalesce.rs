//! Copy coalescing for the values structured constructs hand on: `yield` operands into the
//! `if`'s result registers, `break` operands into the loop's results, and the operands of the
//! `continue` that ends a loop body into its parameters.
//!
//! Instead of a copy, the instruction that computed the value writes the construct's register
//! directly (the value's group is renamed). This is sound when:
//! - the value was computed inside the construct (inside the arm, or the loop body), by one
//!   machine instruction defining its whole group, and no other value was coalesced into the
//!   same target in the same region (the definition writes the target for every lane active
//!   there; the copies at other exits write only the lanes leaving there, after it);
//! - the value is not already in another construct's register: an exit that handed it on
//!   before left it there without a copy, and moving it would leave that register unwritten
//!   for the lanes taking that exit (a constant of a loop body passed as one result by one
//!   `break` and as another by the next);
//! - for loop parameters, additionally nothing reads the parameter after the value is
//!   computed and no other `continue` follows it (the old value must stay available until
//!   its last use, and an earlier `continue` may pass it on unchanged), which is checked on
//!   the code emitted so far; only the final `continue` of a body qualifies, as no code of
//!   the iteration follows it.
//!
//! `if` and loop results are never read inside their construct, so they need no such check.

use agxc_egraph::ir::Value;

use super::Isel;
use crate::mir::VReg;

impl Isel<'_> {
    /// Makes `v`'s defining instruction write `target` instead of a later copy. `start` is the
    /// first instruction of the construct; `check_reads` guards against reads of `target`
    /// after `v` is defined. Returns whether the copy is now unnecessary.
    pub(super) fn coalesce_into(
        &mut self,
        target: VReg,
        v: Value,
        start: usize,
        check_reads: bool,
    ) -> bool {
        let src = self.reg(v);
        if src.group == target.group {
            return src == target;
        }
        // One computed value per target and region: a coalesced definition writes the target
        // for every lane active there, not only for the lanes leaving through this exit, so a
        // second one could overwrite the first while it is still needed (copies at an exit
        // write only the leaving lanes and are harmless).
        if self.coalesced.contains(&(target.group, start)) {
            return false;
        }
        // Earlier exits left `v` in its construct register without a copy and rely on it
        // staying there; this exit copies it instead.
        if self.coalesced_groups.contains(&src.group) {
            return false;
        }
        let Some(d) = self.def_index(v) else {
            return false;
        };
        let whole = |g: &crate::mir::Group, r: VReg| r.offset == 0 && g.units == r.class.units();
        if d < start
            || src.class != target.class
            || !whole(&self.m.groups[src.group as usize], src)
            || !whole(&self.m.groups[target.group as usize], target)
        {
            return false;
        }
        // The whole function: renaming the group is sound only if `d` is its one writer (a
        // construct register also has the copies of its other exits).
        let mut at_d = 0;
        self.m.insts[d].for_each_def(|r| at_d += u32::from(r.group == src.group));
        if self.defs_of(src.group) != at_d {
            return false;
        }
        let insts = &self.m.insts;
        if check_reads {
            // A `continue` after the definition reads the parameter too when it passes the
            // old value on (that copy is to itself, so it is not in the code).
            let mut read = false;
            for inst in &insts[d + 1..] {
                inst.for_each_use(|r| read |= r.group == target.group);
                read |= matches!(inst, crate::mir::MInst::Continue);
            }
            if read {
                return false;
            }
        }
        let retarget = |r: VReg| {
            if r.group == src.group {
                VReg {
                    group: target.group,
                    ..r
                }
            } else {
                r
            }
        };
        for inst in &mut self.m.insts[d..] {
            *inst = inst.map_regs(retarget);
        }
        // The definition at `d` (the group's only one) now writes the target.
        *super::grow(&mut self.def_count, src.group) -= at_d;
        *super::grow(&mut self.def_count, target.group) += at_d;
        self.retarget_values(src.group, target.group);
        self.coalesced.insert((target.group, start));
        self.coalesced_groups.insert(target.group);
        true
    }
}
