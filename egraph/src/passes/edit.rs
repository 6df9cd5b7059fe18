//! Editing structured IR in place: substitution, cloning, moving instructions, the block tree.
//!
//! The passes rewrite a [`Function`] where it stands. Instructions and blocks they drop stay in
//! the function's arenas, unreachable from the entry block; the verifier, the optimizer and the
//! backend only look at what the entry block reaches, and the optimizer's elaboration rebuilds
//! the function from scratch anyway.

use crate::ir::{Block, Const, Function, Inst, InstData, InstFlags, Op, Type, Value, ValueDef};
use cranelift_entity::packed_option::PackedOption;
use cranelift_entity::SecondaryMap;
use rustc_hash::FxHashMap as HashMap;
use smallvec::SmallVec;

/// Creates an instruction with fresh results of the given types, not yet placed in a block.
pub(crate) fn make_inst(
    f: &mut Function,
    op: Op,
    args: &[Value],
    types: &[Type],
    blocks: &[Block],
    flags: InstFlags,
) -> Inst {
    let inst = f.make_inst(InstData {
        op,
        args: args.into(),
        results: SmallVec::new(),
        blocks: blocks.into(),
        flags,
    });
    let results: SmallVec<[Value; 2]> = types
        .iter()
        .enumerate()
        .map(|(i, &t)| f.make_value(t, ValueDef::Result(inst, i as u32)))
        .collect();
    f.insts[inst].results = results;
    for &b in blocks {
        f.blocks[b].parent = Some(inst);
    }
    inst
}

/// A constant instruction (not placed) and its value.
pub(crate) fn make_const(f: &mut Function, c: Const) -> (Inst, Value) {
    let inst = make_inst(f, Op::Const(c), &[], &[c.ty()], &[], InstFlags::NONE);
    (inst, f.insts[inst].results[0])
}

/// Replaces an instruction's results, renumbering their definitions.
pub(crate) fn set_results(f: &mut Function, inst: Inst, results: &[Value]) {
    for (i, &v) in results.iter().enumerate() {
        f.values[v].def = ValueDef::Result(inst, i as u32);
    }
    f.insts[inst].results = results.into();
}

/// Gives a structured instruction fresh results of the given types; returns them.
pub(crate) fn fresh_results(f: &mut Function, inst: Inst, types: &[Type]) -> Vec<Value> {
    let results: Vec<Value> = types
        .iter()
        .enumerate()
        .map(|(i, &t)| f.make_value(t, ValueDef::Result(inst, i as u32)))
        .collect();
    f.insts[inst].results = results.iter().copied().collect();
    results
}

/// Replaces a block's parameters, renumbering their definitions.
pub(crate) fn set_params(f: &mut Function, block: Block, params: &[Value]) {
    for (i, &v) in params.iter().enumerate() {
        f.values[v].def = ValueDef::Param(block, i as u32);
    }
    f.blocks[block].params = params.into();
}

/// The constant a value is, if an `Op::Const` defines it.
pub(crate) fn const_of(f: &Function, v: Value) -> Option<Const> {
    match f.values[v].def {
        ValueDef::Result(inst, _) => match f.insts[inst].op {
            Op::Const(c) => Some(c),
            _ => None,
        },
        _ => None,
    }
}

/// The operation of a block's last instruction (its terminator in a well-formed function).
pub(crate) fn terminator(f: &Function, b: Block) -> Option<(Inst, Op)> {
    let &last = f.blocks[b].insts.last()?;
    Some((last, f.insts[last].op))
}

/// True if the block ends in `yield` (control reaches the end of the `if` it is an arm of).
pub(crate) fn falls(f: &Function, b: Block) -> bool {
    matches!(terminator(f, b), Some((_, Op::Yield)))
}

/// Which exits of the innermost enclosing loop a subtree holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Exits {
    pub breaks: bool,
    pub continues: bool,
}

impl Exits {
    pub fn any(self) -> bool {
        self.breaks || self.continues
    }
}

/// The `break`s and `continue`s in `b` and the `if` arms below it that leave the loop enclosing
/// `b` (nested loops' own exits excluded).
pub(crate) fn block_exits(f: &Function, b: Block) -> Exits {
    let mut out = Exits::default();
    for &i in &f.blocks[b].insts {
        let e = inst_exits(f, i);
        out.breaks |= e.breaks;
        out.continues |= e.continues;
    }
    out
}

/// As [`block_exits`], for one instruction.
pub(crate) fn inst_exits(f: &Function, i: Inst) -> Exits {
    match f.insts[i].op {
        Op::Break => Exits {
            breaks: true,
            continues: false,
        },
        Op::Continue => Exits {
            breaks: false,
            continues: true,
        },
        Op::If => {
            let mut out = Exits::default();
            for &b in &f.insts[i].blocks {
                let e = block_exits(f, b);
                out.breaks |= e.breaks;
                out.continues |= e.continues;
            }
            out
        }
        _ => Exits::default(),
    }
}

/// The terminators in a loop body's subtree that target the loop (not nested loops).
pub(crate) fn loop_exits(f: &Function, body: Block) -> Vec<Inst> {
    let mut out = Vec::new();
    let mut stack = vec![body];
    while let Some(b) = stack.pop() {
        for &i in &f.blocks[b].insts {
            match f.insts[i].op {
                Op::Break | Op::Continue => out.push(i),
                Op::If => stack.extend(f.insts[i].blocks.iter().copied()),
                _ => {}
            }
        }
    }
    out.sort();
    out
}

/// True if the instruction, or anything below it, has an effect or leaves its block other than
/// by `yield` (so it cannot simply be dropped or speculated).
pub(crate) fn has_effects(f: &Function, i: Inst) -> bool {
    let data = &f.insts[i];
    match data.op {
        Op::Pure(_) | Op::Custom(_) | Op::Const(_) | Op::Yield => false,
        Op::Effect(e) => !crate::opt::skeleton::floats(&e),
        Op::If => data
            .blocks
            .iter()
            .any(|&b| f.blocks[b].insts.iter().any(|&j| has_effects(f, j))),
        Op::Loop | Op::Break | Op::Continue | Op::Return | Op::Discard => true,
    }
}

/// Instructions in a block's subtree (structured ones and terminators included, constants not).
pub(crate) fn subtree_size(f: &Function, b: Block) -> usize {
    let mut n = 0;
    let mut stack = vec![b];
    while let Some(b) = stack.pop() {
        for &i in &f.blocks[b].insts {
            if !matches!(f.insts[i].op, Op::Const(_)) {
                n += 1;
            }
            stack.extend(f.insts[i].blocks.iter().copied());
        }
    }
    n
}

/// A value substitution, applied to every operand reachable from the entry block.
#[derive(Default, Debug)]
pub(crate) struct Subst {
    map: HashMap<Value, Value>,
}

impl Subst {
    pub fn insert(&mut self, from: Value, to: Value) {
        if from != to {
            self.map.insert(from, to);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// How many values are replaced.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Follows chains (`a -> b -> c`).
    pub fn resolve(&self, mut v: Value) -> Value {
        let mut steps = 0;
        while let Some(&n) = self.map.get(&v) {
            v = n;
            steps += 1;
            if steps > self.map.len() {
                break;
            }
        }
        v
    }

    /// Rewrites the operands of every instruction reachable from the entry block.
    pub fn apply(&self, f: &mut Function) {
        if self.map.is_empty() {
            return;
        }
        let mut insts = Vec::new();
        f.for_each_inst(|_, i| insts.push(i));
        for i in insts {
            for k in 0..f.insts[i].args.len() {
                let a = f.insts[i].args[k];
                f.insts[i].args[k] = self.resolve(a);
            }
        }
    }

    /// Rewrites the operands in one block's subtree.
    pub fn apply_in(&self, f: &mut Function, b: Block) {
        if self.map.is_empty() {
            return;
        }
        let mut stack = vec![b];
        while let Some(b) = stack.pop() {
            for k in 0..f.blocks[b].insts.len() {
                let i = f.blocks[b].insts[k];
                for j in 0..f.insts[i].args.len() {
                    let a = f.insts[i].args[j];
                    f.insts[i].args[j] = self.resolve(a);
                }
                stack.extend(f.insts[i].blocks.iter().copied());
            }
        }
    }
}

/// Copies a block's subtree: fresh instructions, values and blocks; operands defined inside the
/// copy refer to the copy, others go through `map` (which the copy extends with old -> new).
/// Parameters of `src` are copied too unless `map` already maps them (then the copy has none).
pub(crate) fn clone_block(
    f: &mut Function,
    src: Block,
    parent: Option<Inst>,
    map: &mut HashMap<Value, Value>,
) -> Block {
    let new = f.make_block(parent);
    let params: Vec<Value> = f.blocks[src].params.to_vec();
    if !params.iter().all(|p| map.contains_key(p)) {
        let mut fresh = Vec::new();
        for (i, &p) in params.iter().enumerate() {
            let ty = f.value_type(p);
            let v = f.make_value(ty, ValueDef::Param(new, i as u32));
            map.insert(p, v);
            fresh.push(v);
        }
        f.blocks[new].params = fresh.into();
    }
    let insts = f.blocks[src].insts.clone();
    for i in insts {
        let c = clone_inst(f, i, map);
        f.blocks[new].insts.push(c);
    }
    new
}

/// Copies one instruction (and its blocks), extending `map` with its results.
pub(crate) fn clone_inst(f: &mut Function, i: Inst, map: &mut HashMap<Value, Value>) -> Inst {
    let data = f.insts[i].clone();
    let args: SmallVec<[Value; 4]> = data
        .args
        .iter()
        .map(|a| map.get(a).copied().unwrap_or(*a))
        .collect();
    let types: Vec<Type> = data.results.iter().map(|&r| f.value_type(r)).collect();
    let c = make_inst(f, data.op, &args, &types, &[], data.flags);
    for (k, &r) in data.results.iter().enumerate() {
        let nr = f.insts[c].results[k];
        map.insert(r, nr);
    }
    let mut blocks: SmallVec<[Block; 2]> = SmallVec::new();
    for &b in &data.blocks {
        blocks.push(clone_block(f, b, Some(c), map));
    }
    f.insts[c].blocks = blocks;
    c
}

/// Where each reachable block sits: its owner instruction and the block holding that.
pub(crate) struct Tree {
    /// The block holding each reachable instruction: dense over the function's arena, since
    /// every pass that builds a tree fills it for the whole function.
    inst_block: SecondaryMap<Inst, PackedOption<Block>>,
}

impl Tree {
    pub fn new(f: &Function) -> Tree {
        let mut inst_block = SecondaryMap::with_capacity(f.insts.len());
        f.for_each_inst(|b, i| {
            inst_block[i] = b.into();
        });
        Tree { inst_block }
    }

    /// The block holding the reachable instruction `i`.
    pub fn block_of(&self, i: Inst) -> Option<Block> {
        self.inst_block.get(i).and_then(|b| b.expand())
    }

    /// Forgets `insts` and everything below them (dropped from the function).
    pub fn forget(&mut self, f: &Function, insts: &[Inst]) {
        let mut stack: Vec<Inst> = insts.to_vec();
        while let Some(i) = stack.pop() {
            if self.inst_block.get(i).is_some() {
                self.inst_block[i] = None.into();
            }
            for &b in &f.insts[i].blocks {
                stack.extend_from_slice(&f.blocks[b].insts);
            }
        }
    }

    /// The block holding the structured instruction that owns `b`.
    pub fn parent_block(&self, f: &Function, b: Block) -> Option<Block> {
        let owner = f.blocks[b].parent?;
        self.block_of(owner)
    }

    /// True if `b` is `anc` or nested inside it.
    pub fn within(&self, f: &Function, mut b: Block, anc: Block) -> bool {
        let mut steps = 0;
        loop {
            if b == anc {
                return true;
            }
            match self.parent_block(f, b) {
                Some(p) => b = p,
                None => return false,
            }
            steps += 1;
            if steps > f.blocks.len() {
                return false;
            }
        }
    }

    /// The block that defines `v` (`None` for values of unreachable instructions).
    pub fn def_block(&self, f: &Function, v: Value) -> Option<Block> {
        match f.values[v].def {
            ValueDef::Result(i, _) => self.block_of(i),
            ValueDef::Param(b, _) => Some(b),
            ValueDef::Undefined => None,
        }
    }
}

/// Every structured instruction reachable from the entry block, innermost first (post-order).
pub(crate) fn structured_post_order(f: &Function, op: Op) -> Vec<Inst> {
    fn walk(f: &Function, b: Block, op: Op, out: &mut Vec<Inst>) {
        for &i in &f.blocks[b].insts {
            for &c in &f.insts[i].blocks {
                walk(f, c, op, out);
            }
            if f.insts[i].op == op {
                out.push(i);
            }
        }
    }
    let mut out = Vec::new();
    walk(f, f.entry, op, &mut out);
    out
}

/// The position of `inst` in block `b`.
pub(crate) fn position(f: &Function, b: Block, inst: Inst) -> Option<usize> {
    f.blocks[b].insts.iter().position(|&i| i == inst)
}
