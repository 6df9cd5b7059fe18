//! Pattern rules on top of `egg`: generic literals, guards and typed right sides.
//!
//! The left side becomes an `egg` [`Pattern`] in which every generic literal is a fresh variable;
//! the searcher keeps only matches whose literal variables are constants equal to the literal in
//! their class's type and whose guard accepts (filtering while searching keeps the backoff
//! scheduler from banning a rule for matches it would never apply). The applier gives every
//! literal of the right side the type its position demands, found from the operation table's
//! signatures, and adds the instance; with explanations on it goes through
//! [`egg::EGraph::union_instantiations`] so that proofs name the rule.

use super::super::analysis::{node_type, EGraph, FactAnalysis, Facts};
use super::super::language::{Kind, Node};
use super::super::term::{operand_types, Lit, Term};
use super::Guard;
use crate::ir::{Const, Type};
use egg::{
    Applier, ENodeOrVar, Id, Language, Pattern, PatternAst, SearchMatches, Searcher, Subst, Symbol,
    Var,
};
use smallvec::SmallVec;
use std::sync::OnceLock;

/// A match seen by a guard: the classes bound to the pattern's variables, and constants the
/// guard binds for the right side.
pub struct Bindings<'a> {
    egraph: &'a EGraph,
    subst: &'a Subst,
    bound: SmallVec<[(Var, Const); 2]>,
}

fn var(name: &str) -> Option<Var> {
    // Guards name variables by string on every match; parsing (and interning) each time would
    // dominate a guard's cost, so the parsed variables are cached.
    thread_local! {
        static VARS: std::cell::RefCell<rustc_hash::FxHashMap<String, Var>> =
            std::cell::RefCell::new(rustc_hash::FxHashMap::default());
    }
    VARS.with(|cache| {
        if let Some(&v) = cache.borrow().get(name) {
            return Some(v);
        }
        let v: Var = format!("?{name}").parse().ok()?;
        cache.borrow_mut().insert(name.to_string(), v);
        Some(v)
    })
}

impl<'a> Bindings<'a> {
    fn new(egraph: &'a EGraph, subst: &'a Subst) -> Bindings<'a> {
        Bindings {
            egraph,
            subst,
            bound: SmallVec::new(),
        }
    }

    /// The e-graph.
    pub fn egraph(&self) -> &EGraph {
        self.egraph
    }

    /// The class bound to `?name`.
    pub fn class(&self, name: &str) -> Option<Id> {
        self.subst.get(var(name)?).map(|&id| self.egraph.find(id))
    }

    /// The analysis facts of the class bound to `?name`.
    pub fn facts(&self, name: &str) -> Option<Facts> {
        self.class(name).map(|id| self.egraph[id].data)
    }

    /// The constant value of `?name` (a matched constant class, or one the guard bound).
    pub fn konst(&self, name: &str) -> Option<Const> {
        let v = var(name)?;
        if let Some((_, c)) = self.bound.iter().find(|(w, _)| *w == v) {
            return Some(*c);
        }
        self.facts(name)?.konst
    }

    /// The type of `?name`.
    pub fn ty(&self, name: &str) -> Option<Type> {
        if let Some(c) = self.konst(name) {
            return Some(c.ty());
        }
        self.facts(name)?.ty
    }

    /// Binds `?name` to a constant for the right side.
    pub fn bind(&mut self, name: &str, c: Const) {
        if let Some(v) = var(name) {
            self.bound.retain(|(w, _)| *w != v);
            self.bound.push((v, c));
        }
    }
}

/// The right side with `egg` variables.
#[derive(Clone, Debug)]
enum Rhs {
    Var(Var),
    Lit(Lit),
    Node(Kind, Vec<Rhs>),
}

fn to_rhs(t: &Term) -> Result<Rhs, String> {
    Ok(match t {
        Term::Var(n, _) => Rhs::Var(var(n).ok_or_else(|| format!("bad variable `{n}`"))?),
        Term::Lit(l) => Rhs::Lit(*l),
        Term::Node(k, kids) => Rhs::Node(*k, kids.iter().map(to_rhs).collect::<Result<_, _>>()?),
    })
}

fn lhs_ast(t: &Term, ast: &mut PatternAst<Node>, lits: &mut Vec<(Var, Lit)>) -> Result<Id, String> {
    Ok(match t {
        Term::Var(n, _) => ast.add(ENodeOrVar::Var(
            var(n).ok_or_else(|| format!("bad variable `{n}`"))?,
        )),
        Term::Lit(l) => {
            let v = var(&format!("#{}", lits.len())).ok_or("literal variable")?;
            lits.push((v, *l));
            ast.add(ENodeOrVar::Var(v))
        }
        Term::Node(k, kids) => {
            let ids: Vec<Id> = kids
                .iter()
                .map(|kid| lhs_ast(kid, ast, lits))
                .collect::<Result<_, _>>()?;
            ast.add(ENodeOrVar::ENode(Node::new(*k, &ids)))
        }
    })
}

/// The searcher and applier of a pattern rule.
pub(super) fn compile(
    lhs: &Term,
    rhs: &Term,
    guard: Option<Guard>,
) -> Result<(LhsSearcher, RhsApplier), String> {
    let mut ast = PatternAst::default();
    let mut lits = Vec::new();
    lhs_ast(lhs, &mut ast, &mut lits)?;
    let searcher = LhsSearcher {
        ast: compact(ast),
        pattern: OnceLock::new(),
        lits,
        guard,
    };
    let applier = RhsApplier {
        rhs: to_rhs(rhs)?,
        guard,
    };
    Ok((searcher, applier))
}

/// The pattern with equal nodes shared, as `Pattern::new` keeps it (egg's own `compact` is
/// private to it).
fn compact(ast: PatternAst<Node>) -> PatternAst<Node> {
    // Patterns have a handful of nodes: a linear search beats hashing them.
    let mut ids: Vec<Id> = Vec::with_capacity(ast.as_ref().len());
    let mut kept: Vec<ENodeOrVar<Node>> = Vec::with_capacity(ast.as_ref().len());
    for node in ast.as_ref() {
        let node = node.clone().map_children(|id| ids[usize::from(id)]);
        let at = match kept.iter().position(|k| *k == node) {
            Some(at) => at,
            None => {
                kept.push(node);
                kept.len() - 1
            }
        };
        ids.push(Id::from(at));
    }
    let mut out = PatternAst::default();
    for node in kept {
        out.add(node);
    }
    out
}

/// Whether no e-class holds an e-node of operation `op`.
pub(super) fn absent(egraph: &EGraph, op: Kind) -> bool {
    egraph.classes_for_op(&op).is_none_or(|ids| ids.len() == 0)
}

pub(super) struct LhsSearcher {
    ast: PatternAst<Node>,
    /// The pattern compiled for `egg`'s matching machine, built at the rule's first search
    /// that can find anything: compiling every rule's pattern would cost every process about a
    /// millisecond, and a small shader holds the root operations of few rules.
    pattern: OnceLock<Pattern<Node>>,
    lits: Vec<(Var, Lit)>,
    guard: Option<Guard>,
}

impl LhsSearcher {
    /// The left side as a pattern (equal nodes shared).
    pub(super) fn ast(&self) -> &PatternAst<Node> {
        &self.ast
    }

    fn pattern(&self) -> &Pattern<Node> {
        self.pattern.get_or_init(|| Pattern::new(self.ast.clone()))
    }

    /// Whether no e-class holds the pattern's root operation (then nothing can match).
    fn root_absent(&self, egraph: &EGraph) -> bool {
        match self.ast.as_ref().last() {
            Some(ENodeOrVar::ENode(e)) => absent(egraph, e.discriminant()),
            _ => false,
        }
    }

    /// `egg`'s matches in one class before the literal and guard checks ([`Self::accepts`]):
    /// a full search counts its limit in these, before filtering.
    pub(super) fn unfiltered(&self, egraph: &EGraph, eclass: Id, limit: usize) -> Vec<Subst> {
        self.pattern()
            .search_eclass_with_limit(egraph, eclass, limit)
            .map_or_else(Vec::new, |m| m.substs)
    }

    /// Whether a match passes the literal checks and the guard.
    pub(super) fn accepts(&self, egraph: &EGraph, subst: &Subst) -> bool {
        for (v, lit) in &self.lits {
            let Some(&id) = subst.get(*v) else {
                return false;
            };
            let facts = &egraph[id].data;
            let want = facts.ty.and_then(|t| lit.to_const(t));
            if want.is_none() || facts.konst != want {
                return false;
            }
        }
        match self.guard {
            Some(g) => g(&mut Bindings::new(egraph, subst)),
            None => true,
        }
    }

    fn filter<'a>(
        &self,
        egraph: &EGraph,
        mut ms: Vec<SearchMatches<'a, Node>>,
    ) -> Vec<SearchMatches<'a, Node>> {
        if self.lits.is_empty() && self.guard.is_none() {
            return ms;
        }
        ms.retain_mut(|m| {
            m.substs.retain(|s| self.accepts(egraph, s));
            !m.substs.is_empty()
        });
        ms
    }
}

impl Searcher<Node, FactAnalysis> for LhsSearcher {
    fn search_with_limit(&self, egraph: &EGraph, limit: usize) -> Vec<SearchMatches<'_, Node>> {
        if self.root_absent(egraph) {
            return Vec::new();
        }
        let ms = Searcher::<Node, FactAnalysis>::search_with_limit(self.pattern(), egraph, limit);
        self.filter(egraph, ms)
    }

    fn search_eclass_with_limit(
        &self,
        egraph: &EGraph,
        eclass: Id,
        limit: usize,
    ) -> Option<SearchMatches<'_, Node>> {
        let m = self
            .pattern()
            .search_eclass_with_limit(egraph, eclass, limit)?;
        self.filter(egraph, vec![m]).pop()
    }

    fn get_pattern_ast(&self) -> Option<&PatternAst<Node>> {
        Some(&self.ast)
    }

    fn vars(&self) -> Vec<Var> {
        // As `Pattern::vars`: each variable once, in the order of the pattern's nodes.
        let mut vars = Vec::new();
        for n in self.ast.as_ref() {
            if let ENodeOrVar::Var(v) = n {
                if !vars.contains(v) {
                    vars.push(*v);
                }
            }
        }
        vars
    }
}

pub(super) struct RhsApplier {
    rhs: Rhs,
    guard: Option<Guard>,
}

struct Ctx<'a> {
    egraph: &'a EGraph,
    subst: &'a Subst,
    bound: &'a [(Var, Const)],
}

impl Ctx<'_> {
    fn bound(&self, v: Var) -> Option<Const> {
        self.bound.iter().find(|(w, _)| *w == v).map(|(_, c)| *c)
    }

    fn known_ty(&self, t: &Rhs) -> Option<Type> {
        match t {
            Rhs::Var(v) => match self.bound(*v) {
                Some(c) => Some(c.ty()),
                None => self.egraph[*self.subst.get(*v)?].data.ty,
            },
            Rhs::Lit(l) => l.natural_type(),
            Rhs::Node(k, kids) => {
                let tys: SmallVec<[Option<Type>; 4]> =
                    kids.iter().map(|kid| self.known_ty(kid)).collect();
                node_type(*k, &tys)
            }
        }
    }

    /// Adds `t`, expected to have type `expected`, to `ast`; `None` if a literal has no meaning
    /// in its position or a variable is unbound.
    fn build(&self, t: &Rhs, expected: Option<Type>, ast: &mut PatternAst<Node>) -> Option<Id> {
        match t {
            Rhs::Var(v) => match self.bound(*v) {
                Some(c) => Some(ast.add(ENodeOrVar::ENode(Node::konst(c)))),
                None => {
                    self.subst.get(*v)?;
                    Some(ast.add(ENodeOrVar::Var(*v)))
                }
            },
            Rhs::Lit(l) => {
                let c = l.to_const(expected?)?;
                Some(ast.add(ENodeOrVar::ENode(Node::konst(c))))
            }
            Rhs::Node(k, kids) => {
                let known: Vec<Option<Type>> = kids.iter().map(|kid| self.known_ty(kid)).collect();
                let want = operand_types(*k, expected, &known);
                let mut ids: SmallVec<[Id; 4]> = SmallVec::new();
                for (i, kid) in kids.iter().enumerate() {
                    let e = want.get(i).copied().flatten().or(known[i]);
                    ids.push(self.build(kid, e, ast)?);
                }
                Some(ast.add(ENodeOrVar::ENode(Node::new(*k, &ids))))
            }
        }
    }
}

impl Applier<Node, FactAnalysis> for RhsApplier {
    fn apply_one(
        &self,
        egraph: &mut EGraph,
        eclass: Id,
        subst: &Subst,
        searcher_ast: Option<&PatternAst<Node>>,
        rule_name: Symbol,
    ) -> Vec<Id> {
        let mut bindings = Bindings::new(egraph, subst);
        if let Some(g) = self.guard {
            if !g(&mut bindings) {
                return vec![];
            }
        }
        let bound = bindings.bound;
        let root_ty = egraph[eclass].data.ty;
        let mut ast = PatternAst::default();
        let ctx = Ctx {
            egraph,
            subst,
            bound: &bound,
        };
        if ctx.build(&self.rhs, root_ty, &mut ast).is_none() {
            return vec![];
        }
        instantiate(egraph, eclass, subst, searcher_ast, &ast, rule_name)
    }
}

/// Adds a right-side instance and unions it with the matched class (through
/// `union_instantiations` when explanations are on and the left side is known).
pub(crate) fn instantiate(
    egraph: &mut EGraph,
    eclass: Id,
    subst: &Subst,
    searcher_ast: Option<&PatternAst<Node>>,
    rhs: &PatternAst<Node>,
    rule_name: Symbol,
) -> Vec<Id> {
    match searcher_ast {
        Some(lhs) if egraph.are_explanations_enabled() => {
            let (id, did) = egraph.union_instantiations(lhs, rhs, subst, rule_name);
            if did {
                vec![id]
            } else {
                vec![]
            }
        }
        _ => {
            let id = egraph.add_instantiation(rhs, subst);
            let did = if egraph.are_explanations_enabled() {
                egraph.union_trusted(eclass, id, rule_name)
            } else {
                egraph.union(eclass, id)
            };
            if did {
                vec![eclass]
            } else {
                vec![]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::OpRegistry;

    #[test]
    fn the_kept_pattern_is_the_one_egg_compiles() {
        let registry = OpRegistry::new();
        for text in [
            "(fadd ?x ?x)",
            "(fmul (fadd ?a ?b) (fadd ?a ?b))",
            "(fadd (fmul ?a 2.0) (fmul ?b 2.0))",
            "(select (flt ?a ?b) ?a ?b)",
        ] {
            let term = Term::parse(text, &registry).expect("parses");
            let mut ast = PatternAst::default();
            lhs_ast(&term, &mut ast, &mut Vec::new()).expect("builds");
            assert_eq!(compact(ast.clone()), Pattern::new(ast).ast, "{text}");
        }
    }
}
