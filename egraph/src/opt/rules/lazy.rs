//! Pattern rules parsed and compiled at their first use.
//!
//! Every `agxc` process that optimizes builds the whole rule set, about 300 rules written as
//! text. Parsing both sides of all of them and building their `egg` searchers and appliers was
//! three quarters of the instructions an empty shader's compile executes, and a quarter of a
//! typical shader's, while a shader holds the root operations of only some of the rules. So a
//! rule built here reads only the operation at the root of its left side; the rest is parsed
//! the first time the rule is searched while the e-graph holds that operation (a rule whose
//! root operation never appears is never parsed), or when its sides are asked for (the
//! soundness check). The matches, and so the output, are the same as with an eager build: a
//! search that finds no class of the root operation finds nothing either way.
//!
//! The built-in lists are data, so a malformed rule is a bug; [`super::Rule::check`] builds a
//! rule completely, and the crate's tests check every built-in rule with it. A lazily built
//! rule that fails to build matches nothing.

use super::pattern::{self, LhsSearcher, RhsApplier};
use super::{Guard, RuleError};
use crate::ir::OpRegistry;
use crate::opt::analysis::{EGraph, FactAnalysis};
use crate::opt::language::{Kind, Node};
use crate::opt::term::Term;
use egg::{Applier, Id, PatternAst, Rewrite, SearchMatches, Searcher, Subst, Symbol, Var};
use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

/// A pattern rule's texts, and what they compile to once asked.
pub(super) struct Lazy {
    /// The rule's name, interned for `egg` already (for error messages: no copy of the text).
    name: Symbol,
    lhs: Cow<'static, str>,
    rhs: Cow<'static, str>,
    guard: Option<Guard>,
    registry: Arc<OpRegistry>,
    /// The operation at the root of the left side.
    root: Kind,
    /// Boxed: a built rule is a few hundred bytes, and most rules of a process are never built
    /// (every process makes them all: their heap is pages it touches).
    built: OnceLock<Box<Result<Built, RuleError>>>,
}

/// The parsed sides and their `egg` searcher and applier.
pub(super) struct Built {
    pub(super) lhs: Term,
    pub(super) rhs: Term,
    searcher: LhsSearcher,
    applier: RhsApplier,
}

impl Lazy {
    /// A rule from its texts; only the left side's root operation is read now (if it cannot be
    /// read, the whole rule is parsed to say why).
    pub(super) fn new(
        name: Symbol,
        lhs: Cow<'static, str>,
        rhs: Cow<'static, str>,
        guard: Option<Guard>,
        registry: Arc<OpRegistry>,
    ) -> Result<Lazy, RuleError> {
        let Some(root) = Term::parse_head(&lhs, &registry) else {
            return Err(match build(name.as_str(), &lhs, &rhs, guard, &registry) {
                Err(e) => e,
                // Not reached: a left side that parses as an operation has a readable head.
                Ok(_) => RuleError::Invalid {
                    rule: name.as_str().to_string(),
                    msg: "the left side has no root operation".into(),
                },
            });
        };
        Ok(Lazy {
            name,
            lhs,
            rhs,
            guard,
            registry,
            root,
            built: OnceLock::new(),
        })
    }

    /// The root operation of the left side.
    pub(super) fn root(&self) -> Kind {
        self.root
    }

    /// The left side's text.
    pub(super) fn lhs_text(&self) -> &str {
        &self.lhs
    }

    /// The rule, built at the first call.
    pub(super) fn get(&self) -> Result<&Built, &RuleError> {
        let built: &Result<Built, RuleError> = self.built.get_or_init(|| {
            Box::new(build(
                self.name.as_str(),
                &self.lhs,
                &self.rhs,
                self.guard,
                &self.registry,
            ))
        });
        built.as_ref()
    }
}

/// Parses both sides, checks them and compiles them for `egg`.
fn build(
    name: &str,
    lhs: &str,
    rhs: &str,
    guard: Option<Guard>,
    registry: &OpRegistry,
) -> Result<Built, RuleError> {
    let term = |text: &str, side: &'static str| {
        Term::parse(text, registry).map_err(|err| RuleError::Term {
            rule: name.to_string(),
            side,
            err,
        })
    };
    let invalid = |msg: String| RuleError::Invalid {
        rule: name.to_string(),
        msg,
    };
    let lhs = term(lhs, "left")?;
    let rhs = term(rhs, "right")?;
    if let Term::Var(..) | Term::Lit(_) = lhs {
        return Err(invalid("the left side must be an operation".into()));
    }
    if guard.is_none() {
        // A guard may bind variables for the right side; without one, the left side must.
        fn names<'t>(t: &'t Term, out: &mut Vec<&'t str>) {
            match t {
                Term::Var(n, _) => out.push(n),
                Term::Node(_, kids) => kids.iter().for_each(|k| names(k, out)),
                Term::Lit(_) => {}
            }
        }
        let (mut bound, mut used) = (Vec::new(), Vec::new());
        names(&lhs, &mut bound);
        names(&rhs, &mut used);
        if let Some(v) = used.into_iter().find(|v| !bound.contains(v)) {
            return Err(invalid(format!("`?{v}` is not bound by the left side")));
        }
    }
    let (searcher, applier) = pattern::compile(&lhs, &rhs, guard).map_err(invalid)?;
    Ok(Built {
        lhs,
        rhs,
        searcher,
        applier,
    })
}

/// The distance from a pattern's root to its deepest position, from its text: the deepest
/// nesting of parentheses (variables and literals, which stand for classes whose facts a
/// match reads, count as one level below their operation). Equal to the parsed term's depth
/// for every operation with operands; the crate's tests check it for every built-in rule.
pub(super) fn text_depth(text: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    for b in text.bytes() {
        match b {
            b'(' => {
                depth += 1;
                max = max.max(depth);
            }
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// The left side of a lazily built rule as an `egg` searcher (and its right side as the
/// applier, below): one allocation serves the rule's `egg` rewrite as both, and the checker.
impl Searcher<Node, FactAnalysis> for Lazy {
    fn search_with_limit(&self, egraph: &EGraph, limit: usize) -> Vec<SearchMatches<'_, Node>> {
        // The point of the laziness: no class holds the root operation, nothing to parse.
        if pattern::absent(egraph, self.root) {
            return Vec::new();
        }
        match self.get() {
            Ok(b) => b.searcher.search_with_limit(egraph, limit),
            Err(_) => Vec::new(),
        }
    }

    fn search_eclass_with_limit(
        &self,
        egraph: &EGraph,
        eclass: Id,
        limit: usize,
    ) -> Option<SearchMatches<'_, Node>> {
        self.get()
            .ok()?
            .searcher
            .search_eclass_with_limit(egraph, eclass, limit)
    }

    fn get_pattern_ast(&self) -> Option<&PatternAst<Node>> {
        self.get().ok().map(|b| b.searcher.ast())
    }

    /// The pattern's variables once the rule is built, none before: `egg` asks only in
    /// `Rewrite::new`, to check that the applier's variables are bound, and this applier
    /// declares none (the rule's build checks its variables).
    fn vars(&self) -> Vec<Var> {
        match self.built.get().map(|b| &**b) {
            Some(Ok(b)) => Searcher::<Node, FactAnalysis>::vars(&b.searcher),
            _ => Vec::new(),
        }
    }
}

/// The `egg` rewrite of a lazily built rule, its searcher and applier both `lazy` (one
/// allocation for the three roles, with the checker's).
///
/// Made from a blank template rather than by `Rewrite::new` (`egg` allows no other way to make
/// one: the struct is non-exhaustive, its fields public), which would allocate a searcher and an
/// applier of their own and check that the applier's variables are bound by the searcher's,
/// which has nothing to check here: this applier declares none (the build checks them).
pub(super) fn rewrite(name: Symbol, lazy: &Arc<Lazy>) -> Rewrite<Node, FactAnalysis> {
    static BLANK: OnceLock<Rewrite<Node, FactAnalysis>> = OnceLock::new();
    let mut rewrite = BLANK
        .get_or_init(|| {
            // Named for the first rule (interning a name of its own would renumber the rules'
            // symbols, which the scheduler's tables hash).
            Rewrite::new(name, Unset, Unset).expect("no variables, nothing unbound")
        })
        .clone();
    rewrite.name = name;
    rewrite.searcher = Arc::clone(lazy) as _;
    rewrite.applier = Arc::clone(lazy) as _;
    rewrite
}

/// The blank template's searcher and applier, replaced before any use.
struct Unset;

impl Searcher<Node, FactAnalysis> for Unset {
    fn search_eclass_with_limit(
        &self,
        _: &EGraph,
        _: Id,
        _: usize,
    ) -> Option<SearchMatches<'_, Node>> {
        None
    }

    fn vars(&self) -> Vec<Var> {
        Vec::new()
    }
}

impl Applier<Node, FactAnalysis> for Unset {
    fn apply_one(
        &self,
        _: &mut EGraph,
        _: Id,
        _: &Subst,
        _: Option<&PatternAst<Node>>,
        _: Symbol,
    ) -> Vec<Id> {
        Vec::new()
    }
}

/// A lazily built rule's left side searched class by class (see `super::ClassSearcher`).
pub(super) struct LazySearcher(pub(super) Arc<Lazy>);

impl LazySearcher {
    /// The rule's matches in one class before the literal and guard checks, as its full search
    /// finds them class by class (built at the first call; a rule that fails to build matches
    /// nothing).
    pub(super) fn unfiltered(&self, egraph: &EGraph, eclass: Id, limit: usize) -> Vec<Subst> {
        match self.0.get() {
            Ok(b) => b.searcher.unfiltered(egraph, eclass, limit),
            Err(_) => Vec::new(),
        }
    }

    /// Whether a match passes the rule's literal checks and guard.
    pub(super) fn accepts(&self, egraph: &EGraph, subst: &Subst) -> bool {
        self.0
            .get()
            .is_ok_and(|b| b.searcher.accepts(egraph, subst))
    }

    /// The operation at the root of the left side.
    pub(super) fn root(&self) -> Kind {
        self.0.root()
    }
}

impl Applier<Node, FactAnalysis> for Lazy {
    fn apply_one(
        &self,
        egraph: &mut EGraph,
        eclass: Id,
        subst: &Subst,
        searcher_ast: Option<&PatternAst<Node>>,
        rule_name: Symbol,
    ) -> Vec<Id> {
        match self.get() {
            Ok(b) => b
                .applier
                .apply_one(egraph, eclass, subst, searcher_ast, rule_name),
            Err(_) => Vec::new(),
        }
    }
}
