//! Elaboration: from the skeleton and the extracted e-nodes back to a function.
//!
//! # Placement
//! Every chosen e-node becomes one instruction, computed once, in one block:
//!
//! - *Latest* block `L`: the lowest common ancestor (in the block tree) of the blocks of all its
//!   uses, so it dominates every use. A value used only inside one arm of an `if` lands in that
//!   arm (sinking), and since it is placed once, sinking never duplicates work.
//! - *Earliest* block `E`: the deepest of its operands' earliest blocks (a leaf's is the block that
//!   defines it, a constant's the entry block).
//! - Between the two (they lie on one chain), it goes to the deepest block of the smallest loop
//!   depth: loop invariants are hoisted out of every loop they do not depend on, and otherwise the
//!   value stays as low as possible. Constants are not hoisted (they are cheaper to rematerialize
//!   than to keep live across a loop).
//!
//! Within its block, the instruction is emitted just before the first item that uses it (directly
//! or inside a nested block), after its operands. The order is a valid program order, not a
//! schedule: the backend schedules.
//!
//! A choice can only fail to elaborate if extraction picked, for a value used early, a form that
//! refers to a value the skeleton defines later (equal in value, but not yet available). That is
//! reported as [`ElabError::Unavailable`]; the optimizer then keeps its input.

use super::analysis::EGraph;
use super::extract::Extraction;
use super::language::{Kind, Node};
use super::skeleton::{Item, Skeleton};
use crate::ir::{Block, EffectOp, Function, InstData, InstFlags, Op, Type, Value, ValueDef};
use egg::{Id, Language};
use rustc_hash::{FxHashMap as HashMap, FxHashSet};
use smallvec::SmallVec;
use std::collections::HashSet;

/// Why the extracted choice could not be turned back into a function.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ElabError {
    /// A needed e-class has no chosen e-node.
    #[error("e-class {0} was not extracted")]
    NotExtracted(Id),
    /// A chosen form refers to a value that is not available where the value is needed.
    #[error("e-class {class}: its chosen form uses a value not available at its use")]
    Unavailable {
        /// The e-class.
        class: Id,
    },
    /// A sample e-node was chosen where a scalar is needed, or the reverse.
    #[error("e-class {0}: wrong kind of e-node for its use")]
    WrongKind(Id),
}

/// Where a block sits in the tree.
#[derive(Clone, Copy, Debug)]
struct BlockInfo {
    parent: Option<(Block, usize)>,
    depth: usize,
    loop_depth: usize,
}

/// A table indexed by e-class id (ids are dense: `egg` numbers e-nodes from 0). The placer's
/// and emitter's per-class maps are these rather than hash maps: a 100,000-instruction function
/// looks classes up a few hundred thousand times, and hashed lookups into tables that outgrow
/// the caches made elaboration grow faster than the function.
struct ById<T> {
    v: Vec<T>,
    empty: T,
}

impl<T: Clone> ById<T> {
    fn new(egraph: &EGraph, empty: T) -> Self {
        ById {
            v: vec![empty.clone(); egraph.nodes().len()],
            empty,
        }
    }

    fn slot(&mut self, id: Id) -> &mut T {
        let i = usize::from(id);
        if i >= self.v.len() {
            self.v.resize(i + 1, self.empty.clone());
        }
        &mut self.v[i]
    }
}

impl<T> ById<Option<T>> {
    fn get(&self, id: Id) -> Option<&T> {
        self.v.get(usize::from(id))?.as_ref()
    }
}

/// The extracted choice by class id.
type Choices<'a> = ById<Option<&'a Node>>;

struct Placer<'a> {
    skel: &'a Skeleton,
    egraph: &'a EGraph,
    choice: Choices<'a>,
    info: HashMap<Block, BlockInfo>,
    /// Block defining each leaf value.
    leaf_block: HashMap<Value, Block>,
}

impl Placer<'_> {
    fn info(&self, b: Block) -> BlockInfo {
        self.info[&b]
    }

    fn lca(&self, mut a: Block, mut b: Block) -> Block {
        while self.info(a).depth > self.info(b).depth {
            a = self.info(a).parent.map_or(a, |p| p.0);
        }
        while self.info(b).depth > self.info(a).depth {
            b = self.info(b).parent.map_or(b, |p| p.0);
        }
        while a != b {
            match (self.info(a).parent, self.info(b).parent) {
                (Some(pa), Some(pb)) => {
                    a = pa.0;
                    b = pb.0;
                }
                _ => break,
            }
        }
        a
    }

    /// The item index in `ancestor` that contains the point `(b, i)`.
    fn point_in(&self, ancestor: Block, mut b: Block, mut i: usize) -> Option<usize> {
        while b != ancestor {
            let (pb, pi) = self.info(b).parent?;
            b = pb;
            i = pi;
        }
        Some(i)
    }

    fn is_ancestor(&self, a: Block, mut b: Block) -> bool {
        loop {
            if a == b {
                return true;
            }
            match self.info(b).parent {
                Some((p, _)) => b = p,
                None => return false,
            }
        }
    }
}

/// The e-classes an item needs: its uses, and for a sample the chosen form's operands.
fn item_uses(item: &Item, choice: &Choices<'_>) -> Result<Vec<Id>, ElabError> {
    match item {
        Item::Sample { class, .. } => match choice.get(*class).copied() {
            Some(n) if matches!(n.kind, Kind::Sample(_)) => Ok(n.children.to_vec()),
            Some(_) => Err(ElabError::WrongKind(*class)),
            None => Err(ElabError::NotExtracted(*class)),
        },
        other => Ok(other.uses().to_vec()),
    }
}

/// Builds the optimized function from `input`'s header, the skeleton and the extraction.
pub fn elaborate(
    input: &Function,
    skel: &Skeleton,
    egraph: &EGraph,
    ex: &Extraction,
    relaxed: &HashSet<Id>,
) -> Result<Function, ElabError> {
    let mut choice = ById::new(egraph, None);
    for (&c, n) in &ex.choice {
        *choice.slot(c) = Some(n);
    }
    let mut p = Placer {
        skel,
        egraph,
        choice,
        info: HashMap::default(),
        leaf_block: HashMap::default(),
    };
    for (&b, sb) in &skel.blocks {
        let (depth, loop_depth) = match sb.parent {
            None => (0, 0),
            Some((pb, pi)) => {
                let pinfo = p.info[&pb];
                let is_loop = matches!(skel.blocks[&pb].items.get(pi), Some(Item::Loop { .. }));
                (pinfo.depth + 1, pinfo.loop_depth + is_loop as usize)
            }
        };
        p.info.insert(
            b,
            BlockInfo {
                parent: sb.parent,
                depth,
                loop_depth,
            },
        );
        for &(v, _) in &sb.params {
            p.leaf_block.insert(v, b);
        }
        for item in &sb.items {
            for &(v, _) in item.results() {
                p.leaf_block.insert(v, b);
            }
        }
    }
    let placement = place(&p)?;
    emit(input, &p, &placement, relaxed)
}

/// Where each computed class goes: block, and the item index it precedes.
struct Placement {
    at: HashMap<(Block, usize), Vec<Id>>,
}

/// Post-order of the chosen DAG below the items' uses (children first).
fn post_order(p: &Placer<'_>, roots: &[Id]) -> Result<Vec<Id>, ElabError> {
    let mut order = Vec::new();
    let mut seen: FxHashSet<Id> = FxHashSet::default();
    for &r in roots {
        if !seen.insert(r) {
            continue;
        }
        let mut stack: Vec<(Id, usize)> = vec![(r, 0)];
        while let Some(top) = stack.last_mut() {
            let (class, next) = *top;
            let node = *p.choice.get(class).ok_or(ElabError::NotExtracted(class))?;
            if let Some(&k) = node.children().get(next) {
                top.1 += 1;
                let k = p.egraph.find(k);
                if seen.insert(k) {
                    stack.push((k, 0));
                }
            } else {
                order.push(class);
                stack.pop();
            }
        }
    }
    Ok(order)
}

fn place(p: &Placer<'_>) -> Result<Placement, ElabError> {
    let entry = p.skel.entry.ok_or(ElabError::NotExtracted(Id::from(0)))?;
    // Direct uses by items.
    let mut uses: ById<Vec<(Block, usize)>> = ById::new(p.egraph, Vec::new());
    let mut roots = Vec::new();
    for (&b, sb) in &p.skel.blocks {
        for (i, item) in sb.items.iter().enumerate() {
            for c in item_uses(item, &p.choice)? {
                let c = p.egraph.find(c);
                uses.slot(c).push((b, i));
                roots.push(c);
            }
        }
    }
    let order = post_order(p, &roots)?;
    // Earliest blocks, children first.
    let mut earliest: ById<Option<Block>> = ById::new(p.egraph, None);
    for &c in &order {
        let node = *p.choice.get(c).ok_or(ElabError::NotExtracted(c))?;
        let e = match node.kind {
            Kind::Leaf { value, .. } => *p
                .leaf_block
                .get(&value)
                .ok_or(ElabError::Unavailable { class: c })?,
            Kind::Sample(_) => return Err(ElabError::WrongKind(c)),
            _ => {
                let mut e = entry;
                for &k in node.children() {
                    let ek = *earliest
                        .get(p.egraph.find(k))
                        .ok_or(ElabError::Unavailable { class: c })?;
                    if p.is_ancestor(e, ek) {
                        e = ek;
                    } else if !p.is_ancestor(ek, e) {
                        return Err(ElabError::Unavailable { class: c });
                    }
                }
                e
            }
        };
        *earliest.slot(c) = Some(e);
    }
    // Blocks and anchors, users first.
    let mut at: HashMap<(Block, usize), Vec<Id>> = HashMap::default();
    for &c in order.iter().rev() {
        let node = *p.choice.get(c).ok_or(ElabError::NotExtracted(c))?;
        let points = uses.slot(c).clone();
        if matches!(node.kind, Kind::Leaf { .. }) {
            // Defined by the skeleton; users only need it to exist first (checked on emission).
            continue;
        }
        let Some(&(first_block, _)) = points.first() else {
            return Err(ElabError::NotExtracted(c));
        };
        let latest = points
            .iter()
            .fold(first_block, |acc, &(b, _)| p.lca(acc, b));
        let e = *earliest.get(c).ok_or(ElabError::Unavailable { class: c })?;
        if !p.is_ancestor(e, latest) {
            return Err(ElabError::Unavailable { class: c });
        }
        let block = if matches!(node.kind, Kind::Const(_)) {
            latest
        } else {
            // Deepest block of minimal loop depth on the chain latest..=e.
            let mut best = latest;
            let mut b = latest;
            loop {
                if p.info(b).loop_depth < p.info(best).loop_depth {
                    best = b;
                }
                if b == e {
                    break;
                }
                match p.info(b).parent {
                    Some((pb, _)) => b = pb,
                    None => break,
                }
            }
            best
        };
        let anchor = points
            .iter()
            .filter_map(|&(b, i)| p.point_in(block, b, i))
            .min()
            .ok_or(ElabError::Unavailable { class: c })?;
        at.entry((block, anchor)).or_default().push(c);
        for &k in node.children() {
            let k = p.egraph.find(k);
            uses.slot(k).push((block, anchor));
        }
    }
    // Children before parents at each anchor: `order` is a post-order.
    let mut rank: ById<usize> = ById::new(p.egraph, 0);
    for (i, &c) in order.iter().enumerate() {
        *rank.slot(c) = i;
    }
    for list in at.values_mut() {
        list.sort_by_key(|&c| rank.v.get(usize::from(c)).copied().unwrap_or(0));
    }
    Ok(Placement { at })
}

/// Invariant reads already emitted: (effect, operand values, block) -> results.
type ReadCache = HashMap<(EffectOp, SmallVec<[Value; 2]>, Block), SmallVec<[Value; 2]>>;

struct Emitter<'a, 'p> {
    p: &'a Placer<'p>,
    placement: &'a Placement,
    /// The classes whose operations may be relaxed, and each class's type, by id (from one
    /// pass over each: a lookup per emitted value into the set's and `egg`'s hash tables is a
    /// cache miss each in large functions).
    relaxed: ById<bool>,
    tys: ById<Option<Type>>,
    out: Function,
    vals: ById<Option<Value>>,
    leaves: HashMap<Value, Value>,
    reads: ReadCache,
}

fn emit(
    input: &Function,
    p: &Placer<'_>,
    placement: &Placement,
    relaxed: &HashSet<Id>,
) -> Result<Function, ElabError> {
    let mut out = Function::new(input.name.clone(), input.stage);
    out.modes = input.modes;
    out.shared_memory = input.shared_memory;
    out.push_constant_bytes = input.push_constant_bytes;
    out.constant_data = input.constant_data.clone();
    out.private_bytes = input.private_bytes;
    let new_entry = out.entry;
    let mut dense_relaxed = ById::new(p.egraph, false);
    for &c in relaxed {
        *dense_relaxed.slot(c) = true;
    }
    let mut tys = ById::new(p.egraph, None);
    for class in p.egraph.classes() {
        *tys.slot(class.id) = class.data.ty;
    }
    let mut em = Emitter {
        p,
        placement,
        relaxed: dense_relaxed,
        tys,
        out,
        vals: ById::new(p.egraph, None),
        leaves: HashMap::default(),
        reads: HashMap::default(),
    };
    let entry = p.skel.entry.ok_or(ElabError::NotExtracted(Id::from(0)))?;
    em.block(entry, new_entry)?;
    Ok(em.out)
}

impl Emitter<'_, '_> {
    fn append(
        &mut self,
        block: Block,
        op: Op,
        args: &[Value],
        types: &[Type],
        blocks: &[Block],
        flags: InstFlags,
    ) -> SmallVec<[Value; 2]> {
        let inst = self.out.make_inst(InstData {
            op,
            args: args.into(),
            results: SmallVec::new(),
            blocks: blocks.into(),
            flags,
        });
        let results: SmallVec<[Value; 2]> = types
            .iter()
            .enumerate()
            .map(|(i, &t)| self.out.make_value(t, ValueDef::Result(inst, i as u32)))
            .collect();
        self.out.insts[inst].results = results.clone();
        for &b in blocks {
            self.out.blocks[b].parent = Some(inst);
        }
        self.out.blocks[block].insts.push(inst);
        results
    }

    fn value(&self, c: Id) -> Result<Value, ElabError> {
        let c = self.p.egraph.find(c);
        match self.p.choice.get(c).map(|n| n.kind) {
            Some(Kind::Leaf { value, .. }) => self
                .leaves
                .get(&value)
                .copied()
                .ok_or(ElabError::Unavailable { class: c }),
            Some(_) => self
                .vals
                .get(c)
                .copied()
                .ok_or(ElabError::Unavailable { class: c }),
            None => Err(ElabError::NotExtracted(c)),
        }
    }

    fn values(&self, ids: &[Id]) -> Result<SmallVec<[Value; 4]>, ElabError> {
        ids.iter().map(|&c| self.value(c)).collect()
    }

    fn define_leaves(&mut self, old: &[(Value, Type)], new: &[Value]) {
        for (&(o, _), &n) in old.iter().zip(new) {
            self.leaves.insert(o, n);
        }
    }

    fn class(&mut self, c: Id, block: Block) -> Result<(), ElabError> {
        let node = *self.p.choice.get(c).ok_or(ElabError::NotExtracted(c))?;
        let ty = match self.tys.v.get(usize::from(c)) {
            Some(&Some(ty)) => Some(ty),
            _ => self.p.egraph[c].data.ty,
        }
        .ok_or(ElabError::WrongKind(c))?;
        let args = self.values(node.children())?;
        let v = match node.kind {
            Kind::Invariant { op, index, .. } => {
                let key = (op, args.iter().copied().collect(), block);
                let results = match self.reads.get(&key) {
                    Some(r) => r.clone(),
                    None => {
                        let types = invariant_types(op, ty);
                        let r =
                            self.append(block, Op::Effect(op), &args, &types, &[], InstFlags::NONE);
                        self.reads.insert(key, r.clone());
                        r
                    }
                };
                *results.get(index as usize).ok_or(ElabError::WrongKind(c))?
            }
            kind => {
                let (op, mut flags) = kind.to_op().ok_or(ElabError::WrongKind(c))?;
                if self.relaxed.v.get(usize::from(c)).copied().unwrap_or(false) {
                    flags.set(InstFlags::RELAXED, true);
                }
                self.append(block, op, &args, &[ty], &[], flags)[0]
            }
        };
        *self.vals.slot(c) = Some(v);
        Ok(())
    }

    fn block(&mut self, old: Block, new: Block) -> Result<(), ElabError> {
        let sb = &self.p.skel.blocks[&old];
        for (i, item) in sb.items.iter().enumerate() {
            if let Some(list) = self.placement.at.get(&(old, i)) {
                for &c in list {
                    self.class(c, new)?;
                }
            }
            match item {
                Item::Effect {
                    op,
                    args,
                    results,
                    flags,
                } => {
                    let a = self.values(args)?;
                    let types: Vec<Type> = results.iter().map(|r| r.1).collect();
                    let r = self.append(new, Op::Effect(*op), &a, &types, &[], *flags);
                    self.define_leaves(results, &r);
                }
                Item::Sample {
                    class,
                    results,
                    flags,
                } => {
                    let node = *self
                        .p
                        .choice
                        .get(*class)
                        .ok_or(ElabError::NotExtracted(*class))?;
                    let Kind::Sample(op) = node.kind else {
                        return Err(ElabError::WrongKind(*class));
                    };
                    let a = self.values(node.children())?;
                    let types: Vec<Type> = results.iter().map(|r| r.1).collect();
                    let r = self.append(
                        new,
                        Op::Effect(EffectOp::Sample(op)),
                        &a,
                        &types,
                        &[],
                        *flags,
                    );
                    self.define_leaves(results, &r);
                }
                Item::If {
                    cond,
                    results,
                    then_block,
                    else_block,
                    flags,
                } => {
                    let c = self.value(*cond)?;
                    let t = self.out.make_block(None);
                    let e = self.out.make_block(None);
                    let types: Vec<Type> = results.iter().map(|r| r.1).collect();
                    let r = self.append(new, Op::If, &[c], &types, &[t, e], *flags);
                    self.block(*then_block, t)?;
                    self.block(*else_block, e)?;
                    self.define_leaves(results, &r);
                }
                Item::Loop {
                    init,
                    results,
                    body,
                    flags,
                } => {
                    let a = self.values(init)?;
                    let nb = self.out.make_block(None);
                    let types: Vec<Type> = results.iter().map(|r| r.1).collect();
                    let r = self.append(new, Op::Loop, &a, &types, &[nb], *flags);
                    let old_params = &self.p.skel.blocks[body].params;
                    let params: SmallVec<[Value; 2]> = old_params
                        .iter()
                        .enumerate()
                        .map(|(i, &(_, t))| self.out.make_value(t, ValueDef::Param(nb, i as u32)))
                        .collect();
                    self.out.blocks[nb].params = params.clone();
                    self.define_leaves(old_params, &params);
                    self.block(*body, nb)?;
                    self.define_leaves(results, &r);
                }
                Item::Terminator { op, args, flags } => {
                    let a = self.values(args)?;
                    self.append(new, *op, &a, &[], &[], *flags);
                }
            }
        }
        Ok(())
    }
}

/// The result types of an invariant read whose result `ty` is known (`tex_size` has several).
fn invariant_types(op: EffectOp, ty: Type) -> Vec<Type> {
    match op {
        EffectOp::TexSize(s) => {
            vec![Type::I32; s.target.dim.size_components() + s.target.arrayed as usize]
        }
        _ => vec![ty],
    }
}
