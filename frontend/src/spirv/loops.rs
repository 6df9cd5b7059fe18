//! Loops: `OpLoopMerge` headers into IR loops with loop-carried parameters.
//!
//! The parameters are the header's `OpPhi`s and every promoted variable the loop may store to,
//! found by scanning the loop's blocks (and the functions they call) before lifting it. The
//! scan may over-approximate; a parameter that is never changed just passes its value around.

use super::cfg::{Flow, Frame, FrameKind, Target};
use super::context::Lowerer;
use super::error::SpirvError;
use super::module::{Block as SpvBlock, Id, Inst};
use super::value::{Agg, Key, Pointer, Root};
use rspirv::dr::Operand;
use spirv::{Op, StorageClass};
use std::collections::{BTreeSet, HashSet};

impl<'m> Lowerer<'m> {
    /// Lifts the loop headed by `header`. Returns the merge block if control reaches it.
    pub fn lower_loop(&mut self, header: &'m SpvBlock) -> Result<Option<Id>, SpirvError> {
        let mi = header
            .merge()
            .filter(|m| m.opcode == Op::LoopMerge)
            .ok_or_else(|| header.label_inst.invalid("not a loop header"))?;
        let merge = mi.id(0)?;
        let cont = mi.id(1)?;
        self.check_nesting(mi)?;

        let mut carried: BTreeSet<Key> = BTreeSet::new();
        for phi in header.insts.iter().take_while(|i| i.opcode == Op::Phi) {
            carried.insert(Key::Id(phi.result()?));
        }
        for v in self.vars_stored_in_loop(header, merge)? {
            carried.insert(Key::Var(v));
        }
        let mut keys = Vec::new();
        let mut init = Vec::new();
        for k in carried {
            match self.env.get(k) {
                Some(a) => {
                    a.leaves(&mut init);
                    keys.push(k);
                }
                None if matches!(k, Key::Id(_)) => {
                    return Err(header.label_inst.invalid(
                        "an OpPhi of the loop header has no value for the edge entering the loop",
                    ))
                }
                None => {}
            }
        }

        let parent = self.block;
        let (ir, body, params) = self.builder().begin_loop(&init, &[]);
        let pre = self.env.clone();
        let mut it = params.into_iter();
        for k in &keys {
            let template = pre
                .get(*k)
                .cloned()
                .expect("carried keys were read from this env");
            let param = template
                .rebuild(&mut it)
                .expect("the loop has one parameter per leaf of the carried values");
            self.env.set(*k, param);
        }
        self.block = body;
        let kind = FrameKind::Loop {
            header: header.label,
            cont,
            merge,
            carried: keys,
        };
        self.frames.push(Frame::new(
            kind,
            Some(ir),
            vec![Target::Block(merge)],
            pre,
            self.visited.len(),
            mi,
        ));
        let flow = self.lower_seq_from(header.label, true, mi)?;
        let frame = self
            .frames
            .pop()
            .expect("the loop frame pushed above is on top");
        self.block = parent;
        if flow == Flow::Returned {
            return Err(mi.unstructured("a return from inside a loop of an inlined function"));
        }
        Ok(self.close_loop(frame)?.then_some(merge))
    }

    /// Promoted variables the loop starting at `header` may store to.
    fn vars_stored_in_loop(&self, header: &'m SpvBlock, merge: Id) -> Result<Vec<Id>, SpirvError> {
        let mut stop: HashSet<Id> = HashSet::from([merge]);
        for f in &self.frames {
            match &f.kind {
                FrameKind::If { merge: Some(m) } => {
                    stop.insert(*m);
                }
                FrameKind::Loop {
                    header,
                    cont,
                    merge,
                    ..
                } => {
                    stop.extend([*header, *cont, *merge]);
                }
                FrameKind::Switch { merge } => {
                    stop.insert(*merge);
                }
                _ => {}
            }
        }
        let mut seen: HashSet<Id> = HashSet::from([header.label]);
        let mut queue = vec![header];
        let mut out = BTreeSet::new();
        while let Some(block) = queue.pop() {
            for inst in &block.insts {
                self.scan_stores(inst, &mut out)?;
            }
            for succ in successors(block.terminator()) {
                if stop.contains(&succ) || !seen.insert(succ) {
                    continue;
                }
                if let Some(&(b, _)) = self.blocks.get(&succ) {
                    queue.push(b);
                }
            }
        }
        Ok(out.into_iter().collect())
    }

    /// Adds the promoted variables `inst` may store to.
    fn scan_stores(&self, inst: &Inst, out: &mut BTreeSet<Id>) -> Result<(), SpirvError> {
        match inst.opcode {
            Op::Store | Op::CopyMemory => {
                if let Some(v) = self.promoted_root(inst.id(0)?) {
                    out.insert(v);
                }
            }
            Op::FunctionCall | Op::ExtInst => {
                for op in &inst.operands {
                    if let Operand::IdRef(id) = op {
                        if let Some(v) = self.promoted_root(*id) {
                            out.insert(v);
                        }
                    }
                }
                if inst.opcode == Op::FunctionCall {
                    let callee = inst.id(0)?;
                    for &root in self
                        .liveness
                        .fn_stores
                        .get(&callee)
                        .map(Vec::as_slice)
                        .unwrap_or(&[])
                    {
                        if let Some(v) = self.promoted_root(root) {
                            out.insert(v);
                        }
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The promoted variable a pointer id is rooted at, as far as can be told before lifting.
    fn promoted_root(&self, ptr: Id) -> Option<Id> {
        let root = self.liveness.root_of(ptr);
        let var = match self
            .env
            .get(Key::Id(root))
            .or_else(|| self.globals.get(&root))
        {
            Some(Agg::Pointer(p)) => match &**p {
                Pointer::Logical {
                    root: Root::Var(v), ..
                } => *v,
                _ => return None,
            },
            // Not lifted yet: a variable declared later in the function being scanned, or one of
            // a callee.
            _ => root,
        };
        let promoted = match self.vars.get(&var) {
            Some(info) => matches!(
                info.class,
                StorageClass::Function | StorageClass::Private | StorageClass::Output
            ),
            None => self.liveness.fn_vars.values().any(|vs| vs.contains(&var)),
        };
        (promoted && !self.is_private_var(var)).then_some(var)
    }
}

/// The blocks a terminator may branch to.
pub(crate) fn successors(term: &Inst) -> Vec<Id> {
    match term.opcode {
        Op::Branch => term.id(0).into_iter().collect(),
        Op::BranchConditional => [term.id(1), term.id(2)].into_iter().flatten().collect(),
        Op::Switch => {
            let mut out: Vec<Id> = term.id(1).into_iter().collect();
            out.extend(term.operands.iter().skip(2).filter_map(|o| match o {
                Operand::IdRef(id) => Some(*id),
                _ => None,
            }));
            out
        }
        _ => Vec::new(),
    }
}
