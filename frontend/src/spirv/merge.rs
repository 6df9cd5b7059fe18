//! Closing a construct: what flows out of it, and where control goes next.
//!
//! Each exit site recorded an environment. Names whose value is the same at every site as
//! before the construct stay as they are; a name that changed on some path, is defined on every
//! path of an exit kind, and is used later ([`Lowerer::is_live`]) becomes a result of the IR
//! `if`/`loop`; the others are forgotten. A path that did not define a name another exit kind
//! needs passes zeros (that combination is never observed). Loops with several exit kinds put an
//! exit code in result 0 and dispatch on it afterwards.

use super::cfg::{Flow, Frame, FrameKind};
use super::context::Lowerer;
use super::error::SpirvError;
use super::module::Id;
use super::value::{Agg, Env, Key};
use agxc_egraph::ir::{PureOp, Type, Value, ValueDef};
use spirv::StorageClass;
use std::collections::{BTreeMap, BTreeSet, HashSet};

impl<'m> Lowerer<'m> {
    /// Closes an `if`: patches its yields, sets the environment after it. False if no arm
    /// reaches the merge (the current block is then terminated).
    pub fn close_if(&mut self, frame: Frame) -> Result<bool, SpirvError> {
        if frame.sites.is_empty() {
            self.terminate_unreachable();
            return Ok(false);
        }
        let envs = self.merge_sites(&frame, false)?;
        self.env = envs
            .into_iter()
            .next()
            .flatten()
            .expect("an if with sites has a merged environment");
        Ok(true)
    }

    /// Closes an IR loop (a SPIR-V loop, a switch or an inlined function): patches its breaks,
    /// dispatches exits that go further out, and sets the environment for its own exit. False if
    /// its own exit is never taken (the current block is then terminated).
    pub fn close_loop(&mut self, frame: Frame) -> Result<bool, SpirvError> {
        if frame.sites.is_empty() {
            self.terminate_unreachable();
            return Ok(false);
        }
        let with_code = frame.exits.len() > 1;
        let envs = self.merge_sites(&frame, with_code)?;
        if !with_code {
            self.env = envs
                .into_iter()
                .next()
                .flatten()
                .expect("a loop with sites of one kind has a merged environment");
            return Ok(true);
        }
        let ir = frame.ir.expect("loop frames own an IR loop");
        let code = self.func.insts[ir].results[0];
        let own = envs[0].clone();
        let base = own.clone().unwrap_or_else(|| frame.pre.clone());
        let last_kind = (1..frame.exits.len()).rev().find(|&k| envs[k].is_some());
        for (k, (env_k, &target)) in envs.iter().zip(&frame.exits).enumerate().skip(1) {
            let Some(env_k) = env_k.clone() else {
                continue;
            };
            if own.is_none() && Some(k) == last_kind {
                // Every lane still here took this exit.
                self.env = env_k;
                self.take_exit(&frame, target)?;
                return Ok(false);
            }
            let kc = self.iconst(Type::I32, k as i64);
            let hit = self.pure(PureOp::Ieq, &[code, kc]);
            let parent = self.block;
            let (dispatch, [then_block, else_block]) = self.builder().begin_if(hit, &[]);
            self.block = then_block;
            // The dispatch `if` is a construct of its own: an exit that would need to yield
            // from an enclosing `if` cannot be taken from inside it.
            let guard = Frame::new(
                FrameKind::If { merge: None },
                Some(dispatch),
                Vec::new(),
                env_k.clone(),
                self.visited.len(),
                &frame.at,
            );
            self.frames.push(guard);
            self.env = env_k;
            self.take_exit(&frame, target)?;
            self.frames.pop();
            self.block = else_block;
            self.builder().yield_(&[]);
            self.block = parent;
            self.env = base.clone();
        }
        match own {
            Some(env) => {
                self.env = env;
                Ok(true)
            }
            None => {
                self.terminate_unreachable();
                Ok(false)
            }
        }
    }

    fn take_exit(&mut self, frame: &Frame, target: super::cfg::Target) -> Result<(), SpirvError> {
        let flow = match self.goto(&frame.at, target)? {
            Flow::Next(b) => self.lower_seq(b, &frame.at)?,
            flow => flow,
        };
        if flow == Flow::Returned {
            return Err(frame
                .at
                .unstructured("a return from inside a loop of an inlined function"));
        }
        Ok(())
    }

    /// Decides the construct's results, patches every site's terminator and returns the
    /// environment after the construct for each exit kind (`None` for kinds never taken).
    fn merge_sites(
        &mut self,
        frame: &Frame,
        with_code: bool,
    ) -> Result<Vec<Option<Env>>, SpirvError> {
        let ir = frame
            .ir
            .expect("constructs with sites own an IR instruction");
        let visited: HashSet<Id> = self.visited[frame.visited_start..]
            .iter()
            .copied()
            .collect();
        let kinds = frame.exits.len().max(1);
        let mut groups: Vec<Vec<usize>> = vec![Vec::new(); kinds];
        for (i, s) in frame.sites.iter().enumerate() {
            groups[s.kind].push(i);
        }
        let mut exports: BTreeMap<Key, Agg> = BTreeMap::new();
        let mut agreed_per_group: Vec<BTreeMap<Key, Agg>> = Vec::new();
        let mut per_group: Vec<Option<(BTreeSet<Key>, BTreeSet<Key>)>> = Vec::new();
        for group in &groups {
            if group.is_empty() {
                per_group.push(None);
                agreed_per_group.push(BTreeMap::new());
                continue;
            }
            let mut changed = BTreeSet::new();
            for &s in group {
                for (k, v) in &frame.sites[s].env.map {
                    if frame.pre.get(*k) != Some(v) {
                        changed.insert(*k);
                    }
                }
            }
            // A name every path leaves with the same value from before the construct needs no
            // result: it simply has that value afterwards.
            let mut agreed = BTreeMap::new();
            for k in &changed {
                let first = frame.sites[group[0]].env.get(*k);
                let same =
                    first.is_some() && group.iter().all(|&s| frame.sites[s].env.get(*k) == first);
                if let Some(v) = first.filter(|_| same) {
                    if self.defined_outside(ir, v) {
                        agreed.insert(*k, v.clone());
                    }
                }
            }
            let exported: BTreeSet<Key> = changed
                .iter()
                .copied()
                .filter(|k| !agreed.contains_key(k))
                .filter(|k| group.iter().all(|&s| frame.sites[s].env.get(*k).is_some()))
                .filter(|k| self.is_live(*k, &visited))
                .collect();
            agreed_per_group.push(agreed);
            for k in &exported {
                let template = frame.sites[group[0]]
                    .env
                    .get(*k)
                    .cloned()
                    .expect("checked above");
                exports.entry(*k).or_insert(template);
            }
            per_group.push(Some((changed, exported)));
        }

        // Patch the sites.
        let exports: Vec<(Key, Agg)> = exports.into_iter().collect();
        let mut result_types = Vec::new();
        if with_code {
            result_types.push(Type::I32);
        }
        let mut spans = Vec::new();
        for (_, template) in &exports {
            let mut leaves = Vec::new();
            template.leaves(&mut leaves);
            spans.push(leaves.len());
            result_types.extend(leaves.iter().map(|&v| self.ty(v)));
        }
        for site in &frame.sites {
            let mut args: Vec<Value> = Vec::new();
            if with_code {
                args.push(self.iconst(Type::I32, site.kind as i64));
            }
            for (k, template) in &exports {
                let value = match site.env.get(*k) {
                    Some(v) if v.same_shape(template) => v.clone(),
                    Some(_) => {
                        return Err(frame.at.unsupported(
                            "a pointer, image or sampler chosen by control flow (it must be the same on every path)",
                        ))
                    }
                    None => self.zero_like(template),
                };
                let before = args.len();
                value.leaves(&mut args);
                let want = &result_types[before..args.len()];
                if args[before..]
                    .iter()
                    .map(|&v| self.ty(v))
                    .ne(want.iter().copied())
                {
                    return Err(frame.at.mismatch(
                        "a value merged from several paths has different types on them",
                    ));
                }
            }
            self.func.insts[site.inst].args = args.into();
        }
        let results: Vec<Value> = result_types
            .iter()
            .enumerate()
            .map(|(i, &ty)| self.func.make_value(ty, ValueDef::Result(ir, i as u32)))
            .collect();
        self.func.insts[ir].results = results.iter().copied().collect();

        // The environment after each exit kind.
        let mut rebuilt: BTreeMap<Key, Agg> = BTreeMap::new();
        let mut at = usize::from(with_code);
        for ((k, template), span) in exports.iter().zip(spans) {
            let mut it = results[at..at + span].iter().copied();
            let agg = template
                .rebuild(&mut it)
                .expect("the template has `span` leaves");
            rebuilt.insert(*k, agg);
            at += span;
        }
        Ok(per_group
            .into_iter()
            .zip(agreed_per_group)
            .map(|(g, agreed)| {
                g.map(|(changed, exported)| {
                    let mut env = frame.pre.clone();
                    for k in &changed {
                        env.map.remove(k);
                    }
                    for k in &exported {
                        env.set(*k, rebuilt[k].clone());
                    }
                    for (k, v) in agreed {
                        env.set(k, v);
                    }
                    env
                })
            })
            .collect())
    }

    /// True if every value `agg` holds is defined outside the blocks of the structured
    /// instruction `ir` (so it is still visible after it).
    fn defined_outside(&self, ir: agxc_egraph::ir::Inst, agg: &Agg) -> bool {
        let mut leaves = Vec::new();
        agg.leaves(&mut leaves);
        if leaves.is_empty() {
            return false;
        }
        let mut inside: HashSet<Value> = HashSet::new();
        let mut stack: Vec<agxc_egraph::ir::Block> = self.func.insts[ir].blocks.to_vec();
        while let Some(b) = stack.pop() {
            inside.extend(self.func.blocks[b].params.iter().copied());
            for &i in &self.func.blocks[b].insts {
                inside.extend(self.func.insts[i].results.iter().copied());
                stack.extend(self.func.insts[i].blocks.iter().copied());
            }
        }
        leaves.iter().all(|v| !inside.contains(v))
    }

    /// True if a name may be read after a construct whose blocks are `visited`.
    pub fn is_live(&self, key: Key, visited: &HashSet<Id>) -> bool {
        let carried = self.frames.iter().any(|f| match &f.kind {
            FrameKind::Loop { carried, .. } => carried.contains(&key),
            _ => false,
        });
        if carried {
            return true;
        }
        match key {
            // A fall-through flag matters only while its switch is open.
            Key::Fell(depth) => depth < self.switch_depth,
            Key::Var(v) => {
                let local = self
                    .vars
                    .get(&v)
                    .is_some_and(|info| info.class == StorageClass::Function);
                if !local || self.liveness.escapes(v) {
                    return true;
                }
                self.liveness
                    .var_uses(v)
                    .iter()
                    .any(|b| !visited.contains(b))
            }
            Key::Id(id) => self.liveness.uses(id).iter().any(|b| !visited.contains(b)),
        }
    }
}
