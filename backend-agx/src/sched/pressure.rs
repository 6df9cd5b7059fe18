//! Live register units while a block is being ordered.
//!
//! A group is live on entry to the block when its interval starts before it, becomes live at
//! its first definition otherwise, and dies after its last use in the block unless it is live
//! after the block. Everything is kept in arrays by block-local group, so scheduling an
//! instruction costs time in its operands, and the change an instruction would make
//! ([`Pressure::delta`]) can change only when a group it writes becomes live or dies, or when
//! it becomes the last unscheduled reader of a group it reads: [`Pressure::apply`] reports the
//! instructions concerned, so the list scheduler re-evaluates those alone.

use super::graph::BlockGraph;

/// Live register units while a block is being ordered.
pub(super) struct Pressure<'g> {
    g: &'g BlockGraph,
    live: Vec<bool>,
    /// Uses (operands) of each group not yet scheduled.
    remaining: Vec<u32>,
    /// Instructions reading each group not yet scheduled.
    readers_left: Vec<u32>,
    done: Vec<bool>,
    /// The live units.
    pub units: u32,
}

impl<'g> Pressure<'g> {
    pub(super) fn new(g: &'g BlockGraph) -> Self {
        let mut remaining = vec![0u32; g.groups.len()];
        let mut readers_left = vec![0u32; g.groups.len()];
        for k in 0..g.len() {
            for r in g.uses.row(k) {
                remaining[r.group as usize] += r.count;
                readers_left[r.group as usize] += 1;
            }
        }
        let live: Vec<bool> = g.groups.iter().map(|x| x.live_in).collect();
        let units = g.groups.iter().filter(|x| x.live_in).map(|x| x.units).sum();
        Pressure {
            g,
            live,
            remaining,
            readers_left,
            done: vec![false; g.len()],
            units,
        }
    }

    /// How scheduling `k` next changes the live units (at `k`, as [`Pressure::apply`] counts):
    /// the groups it writes that are not live yet, less the groups it reads for the last time
    /// that are not live after the block and that it does not write.
    pub(super) fn delta(&self, k: usize) -> i64 {
        let g = self.g;
        let mut d = 0i64;
        for &x in g.defs.row(k) {
            if !self.live[x as usize] {
                d += i64::from(g.groups[x as usize].units);
            }
        }
        for r in g.uses.row(k) {
            let x = r.group as usize;
            if self.remaining[x] == r.count && !g.groups[x].live_out && !r.written {
                d -= i64::from(g.groups[x].units);
            }
        }
        d
    }

    /// Schedules `k`: its definitions become live, the groups it reads last die. Returns the
    /// units live at `k` (a definition nothing reads occupies its registers there only). With
    /// `touched`, appends the instructions whose [`Pressure::delta`] may have changed.
    pub(super) fn apply(&mut self, k: usize, mut touched: Option<&mut Vec<u32>>) -> u32 {
        let g = self.g;
        self.done[k] = true;
        for &x in g.defs.row(k) {
            let x = x as usize;
            if !self.live[x] {
                self.live[x] = true;
                self.units += g.groups[x].units;
                if let Some(t) = touched.as_deref_mut() {
                    t.extend_from_slice(g.definers.row(x));
                }
            }
        }
        for r in g.uses.row(k) {
            let x = r.group as usize;
            self.remaining[x] = self.remaining[x].saturating_sub(r.count);
            self.readers_left[x] -= 1;
            if self.readers_left[x] == 1 {
                if let Some(t) = touched.as_deref_mut() {
                    // The last reader may now free the group.
                    let last = g.readers.row(x).iter().find(|&&u| !self.done[u as usize]);
                    t.extend(last);
                }
            }
        }
        // Sources read for the last time free their registers for the results (instructions
        // read all their sources before writing); a result nothing reads frees them after.
        for r in g.uses.row(k) {
            if !r.written {
                self.kill(r.group as usize, touched.as_deref_mut());
            }
        }
        let at = self.units;
        for &x in g.defs.row(k) {
            self.kill(x as usize, touched.as_deref_mut());
        }
        at
    }

    fn kill(&mut self, x: usize, touched: Option<&mut Vec<u32>>) {
        let g = self.g;
        if self.remaining[x] == 0 && !g.groups[x].live_out && self.live[x] {
            self.live[x] = false;
            self.units -= g.groups[x].units;
            if let Some(t) = touched {
                t.extend_from_slice(g.definers.row(x));
            }
        }
    }
}
