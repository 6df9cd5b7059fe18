//! Static use information, computed once per module.
//!
//! Structured lowering has to decide, where control flow merges, which names flow out of a
//! construct (and become `if`/`loop` results). A name that is used nowhere outside the blocks of
//! the construct does not need to: that is what [`Liveness`] answers, from the blocks in which
//! each id (and each variable, through every pointer derived from it) is used. `OpPhi` operands
//! count as uses in the predecessor block, which is where their value is read.

use super::module::{Id, Module};
use rspirv::dr::Operand;
use spirv::Op;
use std::collections::{HashMap, HashSet};

/// Use sites and pointer provenance for the whole module.
#[derive(Clone, Debug, Default)]
pub(crate) struct Liveness {
    uses: HashMap<Id, Vec<Id>>,
    /// One step of pointer derivation: access chain or copy result -> its base.
    base: HashMap<Id, Id>,
    var_uses: HashMap<Id, Vec<Id>>,
    escaping: HashSet<Id>,
    /// Ids defined in each function (parameters and results).
    pub defs: HashMap<Id, Vec<Id>>,
    /// Function-storage variables of each function.
    pub fn_vars: HashMap<Id, Vec<Id>>,
    /// Every pointer root each function may write through, directly or in a callee (stores,
    /// copies, pointer arguments of calls and extended instructions).
    pub fn_stores: HashMap<Id, Vec<Id>>,
}

impl Liveness {
    pub fn compute(m: &Module) -> Liveness {
        let mut l = Liveness::default();
        let mut vars: HashSet<Id> = m
            .globals
            .iter()
            .filter(|i| i.opcode == Op::Variable)
            .filter_map(|i| i.result_id)
            .collect();
        let mut escape_candidates = Vec::new();
        let mut direct_stores: HashMap<Id, Vec<Id>> = HashMap::new();
        let mut callees: HashMap<Id, Vec<Id>> = HashMap::new();
        for f in &m.functions {
            let defs = l.defs.entry(f.id).or_default();
            defs.extend(f.params.iter().filter_map(|p| p.result_id));
            for b in &f.blocks {
                for inst in &b.insts {
                    if let Some(r) = inst.result_id {
                        defs.push(r);
                    }
                    if inst.opcode == Op::Phi {
                        for pair in inst.operands.chunks(2) {
                            if let [Operand::IdRef(v), Operand::IdRef(parent)] = pair {
                                l.uses.entry(*v).or_default().push(*parent);
                            }
                        }
                        continue;
                    }
                    // A store to a whole variable writes it without reading it: not a use.
                    let whole_store = matches!(inst.opcode, Op::Store | Op::CopyMemory)
                        && matches!(inst.operands.first(), Some(Operand::IdRef(p)) if vars.contains(p));
                    for (i, op) in inst.operands.iter().enumerate() {
                        if let Operand::IdRef(x) = op {
                            if i == 0 && whole_store {
                                continue;
                            }
                            l.uses.entry(*x).or_default().push(b.label);
                        }
                    }
                    match inst.opcode {
                        Op::AccessChain
                        | Op::InBoundsAccessChain
                        | Op::PtrAccessChain
                        | Op::CopyObject => {
                            if let (Some(r), Some(Operand::IdRef(base))) =
                                (inst.result_id, inst.operands.first())
                            {
                                l.base.insert(r, *base);
                            }
                        }
                        Op::Variable => {
                            if let Some(r) = inst.result_id {
                                vars.insert(r);
                                l.fn_vars.entry(f.id).or_default().push(r);
                            }
                        }
                        Op::FunctionCall | Op::ExtInst => {
                            let ids = inst.operands.iter().filter_map(|o| match o {
                                Operand::IdRef(x) => Some(*x),
                                _ => None,
                            });
                            escape_candidates.extend(ids.clone());
                            direct_stores.entry(f.id).or_default().extend(ids);
                            if inst.opcode == Op::FunctionCall {
                                if let Some(Operand::IdRef(callee)) = inst.operands.first() {
                                    callees.entry(f.id).or_default().push(*callee);
                                }
                            }
                        }
                        Op::Store | Op::CopyMemory => {
                            if let Some(Operand::IdRef(p)) = inst.operands.first() {
                                direct_stores.entry(f.id).or_default().push(*p);
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        for (&id, blocks) in &l.uses {
            let root = l.root_of(id);
            if vars.contains(&root) {
                l.var_uses
                    .entry(root)
                    .or_default()
                    .extend(blocks.iter().copied());
            }
        }
        for c in escape_candidates {
            let root = l.root_of(c);
            if vars.contains(&root) {
                l.escaping.insert(root);
            }
        }
        for f in &m.functions {
            // Each function's stores plus those of everything it reaches through calls (a
            // set walk, so a malformed recursive call graph ends too).
            let mut seen = std::collections::HashSet::from([f.id]);
            let mut stack = vec![f.id];
            let mut roots = std::collections::BTreeSet::new();
            while let Some(g) = stack.pop() {
                for &p in direct_stores.get(&g).map(Vec::as_slice).unwrap_or(&[]) {
                    roots.insert(l.root_of(p));
                }
                for &c in callees.get(&g).map(Vec::as_slice).unwrap_or(&[]) {
                    if seen.insert(c) {
                        stack.push(c);
                    }
                }
            }
            l.fn_stores.insert(f.id, roots.into_iter().collect());
        }
        l
    }

    /// The id a pointer is derived from by access chains and copies (itself if none).
    pub fn root_of(&self, mut id: Id) -> Id {
        // Derivation chains are acyclic in valid modules; the bound guards against others.
        for _ in 0..256 {
            match self.base.get(&id) {
                Some(&b) => id = b,
                None => break,
            }
        }
        id
    }

    /// Blocks using an id.
    pub fn uses(&self, id: Id) -> &[Id] {
        self.uses.get(&id).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Blocks using a variable or any pointer derived from it.
    pub fn var_uses(&self, var: Id) -> &[Id] {
        self.var_uses.get(&var).map(Vec::as_slice).unwrap_or(&[])
    }

    /// True if a pointer to the variable is passed to a function or an extended instruction.
    pub fn escapes(&self, var: Id) -> bool {
        self.escaping.contains(&var)
    }
}
