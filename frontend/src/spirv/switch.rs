//! `OpSwitch`: a one-trip IR loop holding one `if` per case.
//!
//! ```text
//! loop {                                  ; a case's branch to the merge block is a `break`
//!     m1 = sel == 1; m2 = sel == 2; m5 = sel == 5         ; one compare per literal
//!     if (m1 || m2)       { case A ... }                   ; A falls into B
//!     if (m5 || m1 || m2) { case B ... break }             ; B's lanes and those A ran for
//!     if true             { default ... break }            ; the last case
//! }
//! ```
//!
//! Cases are lifted in the order of the `OpSwitch` targets, which SPIR-V requires to put a case
//! right before the one it falls through to (section 2.11); the default is placed next to the
//! case it falls into or from. A lane still in the loop at a case's test either matched none of
//! the cases before it or fell into this one, since a case that does not fall through leaves
//! the loop. So a case's test is its literals or the previous case's test (when that case can
//! fall through: a value, not a flag the `if` yields); the default's test only rules out the
//! literals after it; and when every lane has a case (no literal goes straight to the merge,
//! and the default is a case), the last case needs no test at all.
//!
//! The optimizer's `flatten` pass then turns the loop into an `if` nest (a case that always
//! leaves gets the rest of the switch as its `else`), and `if-convert` turns cases that only
//! pick values into selects (`agxc_egraph::passes`).
//!
//! `OpPhi`s of a case reached both from the header and by fall-through take their value where
//! the previous case's `if` closes: the fall-through branch binds them for its edge, the `else`
//! arm (lanes that skipped the previous case) for the header's edge, and the `if`'s results
//! carry whichever applies into the case.

use super::cfg::{Flow, Frame, FrameKind, Target};
use super::context::Lowerer;
use super::error::SpirvError;
use super::loops::successors;
use super::module::{Block as SpvBlock, Id, Inst};
use super::value::{Agg, Key};
use agxc_egraph::ir::{Const, PureOp, Value};
use rspirv::dr::Operand;
use spirv::Op;
use std::collections::HashSet;

impl<'m> Lowerer<'m> {
    pub fn lower_switch(&mut self, block: &'m SpvBlock, merge: Id) -> Result<Flow, SpirvError> {
        let term = block.terminator();
        self.check_nesting(term)?;
        let sel = self.operand_scalar(term, 0)?;
        let sel_ty = self.ty(sel);
        if !sel_ty.is_int() {
            return Err(term.mismatch("the switch selector is not an integer"));
        }
        let default = term.id(1)?;
        let mut cases: Vec<(Const, Id)> = Vec::new();
        let mut i = 2;
        while i < term.operands.len() {
            let lit = match &term.operands[i] {
                Operand::LiteralBit32(v) => *v as u64,
                Operand::LiteralBit64(v) => *v,
                other => return Err(term.invalid(format!("switch literal {other:?}"))),
            };
            cases.push((Const::from_bits(sel_ty, lit), term.id(i + 1)?));
            i += 2;
        }
        let order = self.case_order(default, &cases, merge);

        let parent = self.block;
        let (ir, body, _) = self.builder().begin_loop(&[], &[]);
        let pre = self.env.clone();
        let kind = FrameKind::Switch { merge };
        self.frames.push(Frame::new(
            kind,
            Some(ir),
            vec![Target::Block(merge)],
            pre,
            self.visited.len(),
            term,
        ));
        self.block = body;
        let fell = Key::Fell(self.switch_depth);
        self.switch_depth += 1;
        let f = self.bconst(false);
        self.env.set(fell, Agg::Scalar(f));

        let mut matched: Vec<Value> = Vec::new();
        for (lit, _) in &cases {
            let k = self.konst(*lit);
            matched.push(self.pure(PureOp::Ieq, &[sel, k]));
        }
        // Lanes still here at a case's test matched none of the cases before it, or fell into
        // it. So the default only has to rule out the cases after it (and literals that go
        // straight to the merge), and the last case, when every lane has a case, needs no test.
        let to_merge_lits: Vec<Value> = cases
            .iter()
            .zip(&matched)
            .filter(|((_, t), _)| *t == merge)
            .map(|(_, &m)| m)
            .collect();
        let every_lane_has_a_case = default != merge && to_merge_lits.is_empty();
        let mut open = true;
        for (n, &target) in order.iter().enumerate() {
            let last = n + 1 == order.len();
            let mut cond: Option<Value> = None;
            if last && every_lane_has_a_case {
                cond = Some(self.bconst(true));
            } else {
                for ((_, t), &m) in cases.iter().zip(&matched) {
                    if *t == target {
                        cond = Some(self.or(cond, m));
                    }
                }
                if target == default {
                    let later: Vec<Value> = cases
                        .iter()
                        .zip(&matched)
                        .filter(|((_, t), _)| order[n + 1..].contains(t))
                        .map(|(_, &m)| m)
                        .chain(to_merge_lits.iter().copied())
                        .collect();
                    let any = later
                        .into_iter()
                        .reduce(|a, b| self.pure(PureOp::Or, &[a, b]));
                    let none = match any {
                        Some(a) => self.pure(PureOp::Not, &[a]),
                        None => self.bconst(true),
                    };
                    cond = Some(self.or(cond, none));
                }
            }
            let never = self.bconst(false);
            let fell_now = match self.env.get(fell) {
                Some(Agg::Scalar(v)) => *v,
                _ => never,
            };
            let active = match cond {
                None => fell_now,
                Some(c) if fell_now == never || c == self.bconst(true) => c,
                Some(c) => self.pure(PureOp::Or, &[c, fell_now]),
            };
            let next = order.get(n + 1).copied();
            if !self.lower_case(term, block.label, active, target, next, fell, n)? {
                open = false;
                break;
            }
        }
        if open {
            let to_merge = default == merge || cases.iter().any(|(_, t)| *t == merge);
            if to_merge {
                // Lanes that matched no case, or a literal whose target is the merge block.
                if self.jump(term, block.label, merge)? != Flow::Done {
                    return Err(term.unstructured("the switch merge is not left by a break"));
                }
            } else {
                self.terminate_unreachable();
            }
        }
        self.switch_depth -= 1;
        let frame = self
            .frames
            .pop()
            .expect("the switch frame pushed above is on top");
        self.block = parent;
        let reachable = self.close_loop(frame)?;
        self.env.map.remove(&fell);
        Ok(if reachable {
            Flow::Next(merge)
        } else {
            Flow::Done
        })
    }

    fn or(&mut self, a: Option<Value>, b: Value) -> Value {
        let yes = self.bconst(true);
        if a == Some(yes) || b == yes {
            return yes;
        }
        match a {
            Some(a) => self.pure(PureOp::Or, &[a, b]),
            None => b,
        }
    }

    /// One case: `if active { case ... } else { yield not-fallen }`. False if no lane gets past
    /// it.
    #[allow(clippy::too_many_arguments)]
    fn lower_case(
        &mut self,
        at: &Inst,
        header: Id,
        active: Value,
        target: Id,
        next: Option<Id>,
        fell: Key,
        position: usize,
    ) -> Result<bool, SpirvError> {
        self.check_nesting(at)?;
        let parent = self.block;
        let (ir, [then_block, else_block]) = self.builder().begin_if(active, &[]);
        let pre = self.env.clone();
        let frame = Frame::new(
            FrameKind::If { merge: next },
            Some(ir),
            Vec::new(),
            pre.clone(),
            self.visited.len(),
            at,
        );
        self.frames.push(frame);

        self.block = then_block;
        self.env = pre.clone();
        // A lane that falls out of this case is one that was active in it: the next case's test
        // reads `active` again rather than a flag the `if` would have to yield.
        self.env.set(fell, Agg::Scalar(active));
        let has_phis = self
            .spv_block(target, at)?
            .insts
            .first()
            .is_some_and(|i| i.opcode == Op::Phi);
        // A case after the first has had its phis bound where the case before it closed:
        // by the fall-through edge on lanes that fell through, by the header's edge on the
        // others (the `else` arm below).
        if has_phis && position == 0 {
            self.bind_phis(at, header, target)?;
        }
        let flow = match self.goto(at, Target::Block(target))? {
            Flow::Next(b) => self.lower_seq(b, at)?,
            flow => flow,
        };
        if flow == Flow::Returned {
            return Err(at.unstructured("a return from inside a switch of an inlined function"));
        }

        let then_falls = !self.frames[self.frames.len() - 1].sites.is_empty();
        self.block = else_block;
        self.env = pre;
        let f = if then_falls {
            active
        } else {
            self.bconst(false)
        };
        self.env.set(fell, Agg::Scalar(f));
        // Lanes that skip this case enter the next one, if at all, from the header.
        if let Some(next) = next {
            self.bind_header_phis(at, header, next)?;
        }
        let inst = self.builder().yield_(&[]);
        let env = self.env.clone();
        let top = self.frames.len() - 1;
        self.frames[top]
            .sites
            .push(super::cfg::Site { inst, kind: 0, env });

        let frame = self
            .frames
            .pop()
            .expect("the case frame pushed above is on top");
        self.block = parent;
        self.close_if(frame)
    }

    /// Binds the phis of case `target` that have a value for the edge from the switch
    /// header (a case reached only by fall-through has none to bind).
    fn bind_header_phis(&mut self, at: &Inst, header: Id, target: Id) -> Result<(), SpirvError> {
        let block = self.spv_block(target, at)?;
        let mut bound = Vec::new();
        for phi in block.insts.iter().take_while(|i| i.opcode == Op::Phi) {
            let incoming = phi.operands.chunks(2).find_map(|pair| match pair {
                [Operand::IdRef(v), Operand::IdRef(p)] if *p == header => Some(*v),
                _ => None,
            });
            if let Some(v) = incoming {
                bound.push((phi.result()?, self.value(v, phi)?));
            }
        }
        for (id, v) in bound {
            self.env.set(Key::Id(id), v);
        }
        Ok(())
    }

    /// Case targets in lifting order (see the module docs).
    fn case_order(&self, default: Id, cases: &[(Const, Id)], merge: Id) -> Vec<Id> {
        let mut order: Vec<Id> = Vec::new();
        for (_, t) in cases {
            if *t != merge && !order.contains(t) {
                order.push(*t);
            }
        }
        if default == merge || order.contains(&default) {
            return order;
        }
        let mut stop: HashSet<Id> = order.iter().copied().collect();
        stop.insert(merge);
        stop.insert(default);
        for f in &self.frames {
            match &f.kind {
                FrameKind::Loop {
                    header,
                    cont,
                    merge,
                    ..
                } => stop.extend([*header, *cont, *merge]),
                FrameKind::Switch { merge } => {
                    stop.insert(*merge);
                }
                FrameKind::If { merge: Some(m) } => {
                    stop.insert(*m);
                }
                _ => {}
            }
        }
        if let Some(into) = self.first_reached(default, &order, &stop) {
            let at = order.iter().position(|t| *t == into).unwrap_or(order.len());
            order.insert(at, default);
            return order;
        }
        for n in 0..order.len() {
            if self.first_reached(order[n], &[default], &stop) == Some(default) {
                order.insert(n + 1, default);
                return order;
            }
        }
        order.push(default);
        order
    }

    /// The first of `targets` reached from `from` without passing a `stop` block.
    fn first_reached(&self, from: Id, targets: &[Id], stop: &HashSet<Id>) -> Option<Id> {
        let mut seen = HashSet::from([from]);
        let mut queue = vec![from];
        while let Some(label) = queue.pop() {
            let &(block, _) = self.blocks.get(&label)?;
            for succ in successors(block.terminator()) {
                if succ != from && targets.contains(&succ) {
                    return Some(succ);
                }
                if stop.contains(&succ) || !seen.insert(succ) {
                    continue;
                }
                queue.push(succ);
            }
        }
        None
    }
}
