//! Rewrite rules: data, one topic per file, each with its identity and a soundness tolerance.
//!
//! # Writing a rule
//! A rule is a left-hand pattern, a right-hand term, an optional guard and the tolerance within
//! which both sides agree. Its doc line states the identity it relies on and why that identity
//! holds exactly (or how far it is off):
//!
//! ```text
//! rule_specs! {
//!     /// x * 1 == x: IEEE multiplication by one is exact, also for -0, infinities and NaN.
//!     "fmul-one": "(fmul ?x 1)" => "?x";
//!     /// x * 2^k == x << k (wrapping), k from the constant.
//!     "imul-pow2": "(imul ?x ?c)" => "(ishl ?x ?k)", guard = guards::pow2_shift;
//! }
//! ```
//!
//! The rulebook (after Cranelift's): the right side is never worse than the left for every
//! target; no general commutativity or associativity (targeted variants only, e.g. constants to
//! the right); float identities only where IEEE arithmetic makes them exact with NaN, -0,
//! infinities and denormals (`x * 1 -> x` yes, `x + 0 -> x` no: `-0 + 0` is `+0`), otherwise a
//! stated tolerance. Every rule is checked by `opt::soundness`: both sides are evaluated on random
//! inputs with the IR's evaluation functions; a new rule is checked without touching the test.
//!
//! Literals in patterns are generic (`1` means one in whatever type the position has; see
//! [`Term`]); a guard sees the matched classes' types and constants and may bind new constants
//! for the right side (`?k` above).

pub mod algebra;
pub mod bitfield;
pub mod compare_select;
pub mod constants;
pub mod divide;
pub mod fusion;
pub mod guards;
mod lazy;
pub mod negabs;
mod pattern;
pub mod pow_exp_log;
pub mod scaling;
pub mod strength;
pub mod texture;

pub use pattern::Bindings;

use super::analysis::FactAnalysis;
use super::language::{Kind, Node};
use super::term::{Term, TermError};
use crate::ir::OpRegistry;
use egg::{Rewrite, Symbol};
use lazy::{Lazy, LazySearcher};
use std::borrow::Cow;
use std::sync::Arc;

/// A guard: inspects a match (types, constants) and may bind constants for the right side.
/// Returning `false` rejects the match.
///
/// A guard looks only at the classes its pattern binds (their facts, through [`Bindings`]):
/// the incremental search (`opt::incremental`) re-examines a match when something within the
/// pattern's reach changed, so a decision based on anything further away would not be revisited.
pub type Guard = fn(&mut Bindings<'_>) -> bool;

/// How closely the two sides of a rule must agree in the soundness check.
///
/// It is also the rule's whole account of its inexactness: the equivalence tests
/// (`tests/src/equiv/model.rs`) read every rule's tolerance from the target's rule list to bound
/// how far optimized code may drift from the reference, so an inexact rule needs no entry
/// anywhere else. `Fused` and `ExactInRange` mean the rewrite removes the rounding of an
/// intermediate `fmul` of the left side (the tests charge that product half an ULP); `Ulps`,
/// `Abs` and `AbsPerUnit` bound the left side's root value.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Tolerance {
    /// Bit for bit (every NaN equal to every NaN).
    Exact,
    /// Within this many units in the last place of the result type; +0 equals -0.
    Ulps(u32),
    /// Within this absolute difference; +0 equals -0.
    Abs(f64),
    /// Contraction: within one unit in the last place of the largest intermediate magnitude of the
    /// original computation; anything goes where the original overflowed to infinity (fusing
    /// removes an intermediate rounding and can turn an overflow into a finite result).
    Fused,
    /// Within `base + per_unit * m` absolute, `m` the largest finite magnitude among the left
    /// side's float leaves, inputs and constants (for lowerings whose error grows with the argument, like the G13's
    /// sine-unit reduction); +0 equals -0.
    AbsPerUnit {
        /// The absolute error at `m = 0`.
        base: f64,
        /// The error added per unit of `m`.
        per_unit: f64,
    },
    /// Bit for bit wherever every value of the original computation (inputs, intermediate
    /// results, result) is zero, normal or NaN; unchecked where one is infinite or subnormal.
    /// For re-associations that are exact unless an intermediate result leaves the normal
    /// range, where the original lost range or precision that the rewritten form, one rounding
    /// of the same exact value, does not lose (see `rules::scaling`).
    ExactInRange,
}

/// Which float inputs the soundness check draws for a rule's variables.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Domain {
    /// Everything: NaN, infinities, signed zeros, denormals, extremes, random bits.
    Any,
    /// Random values in `[lo, hi]` plus NaN, infinities, signed zeros and denormals (for rules
    /// whose accuracy is only promised on a range, like the transcendental lowerings).
    Range(f64, f64),
    /// Random finite values of magnitude in `[lo, hi]`, either sign; no special values (texture
    /// coordinates and gradients, where non-finite input has no defined LOD).
    Magnitude(f64, f64),
}

/// The written form of a pattern rule, as the topic files declare it.
#[derive(Clone, Copy, Debug)]
pub struct RuleSpec {
    /// Unique kebab-case name.
    pub name: &'static str,
    /// The identity, from the doc comment.
    pub doc: &'static str,
    /// Left-hand pattern.
    pub lhs: &'static str,
    /// Right-hand term.
    pub rhs: &'static str,
    /// Extra condition and bindings.
    pub guard: Option<Guard>,
    /// Soundness tolerance.
    pub tolerance: Tolerance,
    /// Soundness input domain.
    pub domain: Domain,
    /// A lowering the target cannot do without: never banned by the scheduler.
    pub mandatory: bool,
    /// Extra left sides for the soundness check, for guards whose constants must be correlated
    /// (random constants would almost never satisfy them).
    pub examples: Option<Examples>,
}

impl RuleSpec {
    /// A rule with the defaults: no guard, exact, any input, not mandatory.
    pub const fn new(
        name: &'static str,
        doc: &'static str,
        lhs: &'static str,
        rhs: &'static str,
    ) -> RuleSpec {
        RuleSpec {
            name,
            doc,
            lhs,
            rhs,
            guard: None,
            tolerance: Tolerance::Exact,
            domain: Domain::Any,
            mandatory: false,
            examples: None,
        }
    }

    /// Sets the guard.
    pub const fn guard(mut self, g: Guard) -> RuleSpec {
        self.guard = Some(g);
        self
    }

    /// Sets the tolerance.
    pub const fn tol(mut self, t: Tolerance) -> RuleSpec {
        self.tolerance = t;
        self
    }

    /// Sets the soundness input domain.
    pub const fn domain(mut self, d: Domain) -> RuleSpec {
        self.domain = d;
        self
    }

    /// Marks the rule as a mandatory lowering.
    pub const fn mandatory(mut self, m: bool) -> RuleSpec {
        self.mandatory = m;
        self
    }

    /// Adds soundness-check examples.
    pub const fn examples(mut self, e: Examples) -> RuleSpec {
        self.examples = Some(e);
        self
    }
}

/// Declares pattern rules: each one preceded by its identity as a doc comment.
///
/// `"name": "lhs" => "rhs" [, key = value]*;` where key is `guard`, `tol`, `domain`,
/// `mandatory` or `examples` (the [`RuleSpec`] setters).
#[macro_export]
macro_rules! rule_specs {
    ($(
        $(#[doc = $doc:literal])+
        $name:literal : $lhs:literal => $rhs:literal $(, $key:ident = $val:expr)* ;
    )*) => {
        vec![$(
            $crate::opt::rules::RuleSpec::new($name, concat!($($doc),+), $lhs, $rhs)
                $(.$key($val))*,
        )*]
    };
}

/// Terms a custom rule applies to, for the soundness check (each a concrete left side whose
/// leaves are the random inputs).
pub type Examples = fn() -> Vec<Term>;

/// Where a rule's left sides come from in the soundness check.
#[derive(Clone, Debug)]
pub enum Origin {
    /// A pattern: the checker instantiates its variables with leaves and constants.
    Pattern(PatternSides),
    /// Code: the rule supplies its own example left sides.
    Custom(Examples),
}

/// The two sides of a pattern rule, parsed when first asked for (see `lazy`).
#[derive(Clone)]
pub struct PatternSides(Arc<Lazy>);

impl PatternSides {
    /// The left-hand pattern and the right-hand term (an error if the rule is malformed).
    pub fn terms(&self) -> Result<(&Term, &Term), RuleError> {
        self.0.get().map(|b| (&b.lhs, &b.rhs)).map_err(Clone::clone)
    }
}

impl core::fmt::Debug for PatternSides {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("PatternSides")
            .field(&self.0.lhs_text())
            .finish()
    }
}

/// A pattern rule's left side searched one class at a time, as its full search visits the
/// classes holding its root operation: the scheduler searches many rules class by class
/// (`incremental`), so that a class is read once for all the rules rooted at its operations.
pub struct ClassSearcher(LazySearcher);

impl ClassSearcher {
    /// The operation at the root of the left side.
    pub fn root(&self) -> Kind {
        self.0.root()
    }

    /// The matches in `eclass` before the literal and guard checks (at most `limit`: a full
    /// search counts its limit in these).
    pub fn unfiltered(
        &self,
        egraph: &super::EGraph,
        eclass: egg::Id,
        limit: usize,
    ) -> Vec<egg::Subst> {
        self.0.unfiltered(egraph, eclass, limit)
    }

    /// Whether a match passes the literal checks and the guard.
    pub fn accepts(&self, egraph: &super::EGraph, subst: &egg::Subst) -> bool {
        self.0.accepts(egraph, subst)
    }
}

/// A rule ready to run: its `egg` rewrite and the facts the report and checker need.
#[derive(Clone)]
pub struct Rule {
    /// Unique kebab-case name (borrowed from the rule list's text for the built-in rules, like
    /// the doc line: a copy was an allocation per rule in every process).
    pub name: Cow<'static, str>,
    /// The identity it relies on (borrowed from the rule list's text for the built-in rules:
    /// every process builds them all, and copying ~300 doc lines was a third of the rule set's
    /// heap).
    pub doc: Cow<'static, str>,
    /// Soundness tolerance.
    pub tolerance: Tolerance,
    /// Soundness input domain.
    pub domain: Domain,
    /// Never banned by the scheduler.
    pub mandatory: bool,
    /// Its left sides, for the checker.
    pub origin: Origin,
    /// Extra left sides for the checker.
    pub examples: Option<Examples>,
    /// How far below the matched class a match can look: the depth of the left-hand pattern
    /// (its variables' classes included, since guards read their facts), or what a custom
    /// searcher declares. A class is searched again when something this close below changed.
    pub search_depth: usize,
    /// Matches only classes holding a sample e-node (the texture rules, whose searcher has no
    /// pattern to name its root): the scheduler searches those classes alone.
    pub sample_root: bool,
    /// The rewrite.
    pub rewrite: Rewrite<Node, FactAnalysis>,
}

impl core::fmt::Debug for Rule {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Rule")
            .field("name", &self.name)
            .field("doc", &self.doc)
            .finish()
    }
}

/// Why a rule could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// A side did not parse.
    #[error("rule `{rule}`: {side} side: {err}")]
    Term {
        /// The rule.
        rule: String,
        /// `left` or `right`.
        side: &'static str,
        /// The parse error.
        err: TermError,
    },
    /// The right side uses a variable the left side does not bind (and no guard could).
    #[error("rule `{rule}`: {msg}")]
    Invalid {
        /// The rule.
        rule: String,
        /// What is wrong.
        msg: String,
    },
}

impl Rule {
    /// Builds a pattern rule; target operations in it are looked up in `registry`.
    pub fn from_spec(spec: &RuleSpec, registry: &OpRegistry) -> Result<Rule, RuleError> {
        Rule::build(spec.name, spec.doc, spec.lhs, spec.rhs, spec, registry)
    }

    /// Builds a pattern rule from texts (for generated rules); `settings` supplies the guard,
    /// tolerance, domain and mandatory flag. Both sides are parsed and checked now.
    pub fn build(
        name: &str,
        doc: &str,
        lhs: &str,
        rhs: &str,
        settings: &RuleSpec,
        registry: &OpRegistry,
    ) -> Result<Rule, RuleError> {
        let rule = Rule::deferred(
            Cow::Owned(name.to_string()),
            Cow::Owned(doc.to_string()),
            Cow::Owned(lhs.to_string()),
            Cow::Owned(rhs.to_string()),
            settings,
            &Arc::new(registry.clone()),
        )?;
        rule.check()?;
        Ok(rule)
    }

    /// Builds a pattern rule that is parsed at its first search that can match (see `lazy`):
    /// only the operation at the root of the left side is read now. [`Rule::check`] parses the
    /// rest; until then an error in it goes unnoticed (and the rule matches nothing).
    pub fn deferred(
        name: Cow<'static, str>,
        doc: Cow<'static, str>,
        lhs: Cow<'static, str>,
        rhs: Cow<'static, str>,
        settings: &RuleSpec,
        registry: &Arc<OpRegistry>,
    ) -> Result<Rule, RuleError> {
        let search_depth = lazy::text_depth(&lhs);
        let symbol = Symbol::from(&*name);
        let lazy = Arc::new(Lazy::new(
            symbol,
            lhs,
            rhs,
            settings.guard,
            Arc::clone(registry),
        )?);
        let rewrite = lazy::rewrite(symbol, &lazy);
        Ok(Rule {
            name,
            doc: match doc {
                Cow::Borrowed(d) => Cow::Borrowed(d.trim()),
                Cow::Owned(d) => Cow::Owned(d.trim().to_string()),
            },
            tolerance: settings.tolerance,
            domain: settings.domain,
            mandatory: settings.mandatory,
            search_depth,
            sample_root: false,
            origin: Origin::Pattern(PatternSides(lazy)),
            examples: settings.examples,
            rewrite,
        })
    }

    /// Builds every rule of a list, each parsed and checked now.
    pub fn from_specs(specs: &[RuleSpec], registry: &OpRegistry) -> Result<Vec<Rule>, RuleError> {
        specs.iter().map(|s| Rule::from_spec(s, registry)).collect()
    }

    /// Builds every rule of a list with [`Rule::deferred`] (the built-in lists: they are data
    /// the crates' tests check completely).
    pub fn deferred_specs(
        specs: &[RuleSpec],
        registry: &Arc<OpRegistry>,
    ) -> Result<Vec<Rule>, RuleError> {
        let mut rules = Vec::with_capacity(specs.len());
        Rule::push_deferred(specs, registry, &mut rules)?;
        Ok(rules)
    }

    /// [`Rule::deferred_specs`] appended to `out` (sized once by the caller: a `collect`
    /// through `Result` cannot know the length, and each growth copies the rules built so far).
    fn push_deferred(
        specs: &[RuleSpec],
        registry: &Arc<OpRegistry>,
        out: &mut Vec<Rule>,
    ) -> Result<(), RuleError> {
        for s in specs {
            out.push(Rule::deferred(
                Cow::Borrowed(s.name),
                Cow::Borrowed(s.doc),
                Cow::Borrowed(s.lhs),
                Cow::Borrowed(s.rhs),
                s,
                registry,
            )?);
        }
        Ok(())
    }

    /// Parses and checks a pattern rule completely (a deferred one is otherwise parsed at its
    /// first search); custom rules are built already.
    pub fn check(&self) -> Result<(), RuleError> {
        match &self.origin {
            Origin::Pattern(sides) => {
                let (lhs, _) = sides.terms()?;
                let parsed = depth(lhs);
                if parsed != self.search_depth {
                    return Err(RuleError::Invalid {
                        rule: self.name.to_string(),
                        msg: format!(
                            "the left side's depth read from its text ({}) differs from the \
                             parsed one ({parsed}): an operation without operands in it?",
                            self.search_depth
                        ),
                    });
                }
                Ok(())
            }
            Origin::Custom(_) => Ok(()),
        }
    }

    /// A pattern rule's left side as a searcher of one class at a time
    /// ([`ClassSearcher`]); `None` for rules with their own searchers.
    pub fn class_searcher(&self) -> Option<ClassSearcher> {
        match &self.origin {
            Origin::Pattern(sides) => Some(ClassSearcher(LazySearcher(Arc::clone(&sides.0)))),
            Origin::Custom(_) => None,
        }
    }

    /// The operation at the root of the rule's left side, if it has one (a pattern rule's is
    /// known without parsing it).
    pub fn root_op(&self) -> Option<Kind> {
        match &self.origin {
            Origin::Pattern(sides) => Some(sides.0.root()),
            Origin::Custom(_) => match self.rewrite.searcher.get_pattern_ast()?.as_ref().last()? {
                egg::ENodeOrVar::ENode(n) => Some(n.kind),
                egg::ENodeOrVar::Var(_) => None,
            },
        }
    }
}

/// The distance from a pattern's root to its deepest position (variables and literals count:
/// they stand for classes whose facts a match reads).
fn depth(t: &Term) -> usize {
    match t {
        Term::Node(_, kids) if !kids.is_empty() => 1 + kids.iter().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// The target-independent rules: every topic file's list, in a fixed order (parsed lazily:
/// see `lazy`).
pub fn generic_rules() -> Vec<Rule> {
    generic_rules_with_room(0)
}

/// [`generic_rules`] in a vector with room for `extra` more (a target's own rules: every
/// process builds the rule set, so it is sized once rather than copied as it grows).
pub fn generic_rules_with_room(extra: usize) -> Vec<Rule> {
    let registry = Arc::new(OpRegistry::new());
    // Room for every list below (about 250 specs today; more only costs a regrowth).
    let mut specs = Vec::with_capacity(320);
    specs.extend(constants::specs());
    specs.extend(algebra::specs());
    specs.extend(negabs::specs());
    specs.extend(strength::specs());
    specs.extend(divide::specs());
    specs.extend(compare_select::specs());
    specs.extend(pow_exp_log::specs());
    specs.extend(bitfield::specs());
    specs.extend(fusion::specs());
    specs.extend(scaling::specs());
    // The commutation rules (one per commutative operation) and the texture rules follow.
    let mut rules = Vec::with_capacity(specs.len() + 64 + extra);
    Rule::push_deferred(&specs, &registry, &mut rules)
        .unwrap_or_else(|e| panic!("built-in rule lists are well-formed: {e}"));
    rules.extend(constants::commute_constants_right(&registry));
    rules.extend(texture::rules());
    rules
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generic_rules_build_and_have_unique_kebab_case_names() {
        let rules = generic_rules();
        let mut seen = std::collections::HashSet::new();
        for r in &rules {
            assert!(
                seen.insert(r.name.clone()),
                "duplicate rule name {}",
                r.name
            );
            assert!(
                r.name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{} is not kebab-case",
                r.name
            );
            assert!(!r.doc.is_empty(), "{} has no identity doc line", r.name);
        }
        assert!(rules.len() > 60, "only {} rules", rules.len());
    }

    #[test]
    fn generic_rules_parse_completely() {
        for r in generic_rules() {
            r.check().unwrap_or_else(|e| panic!("{e}"));
        }
    }

    #[test]
    fn a_deferred_rule_reads_its_root_and_reports_errors_when_checked() {
        let reg = Arc::new(OpRegistry::new());
        let spec = |lhs, rhs| RuleSpec::new("r", "d", lhs, rhs);
        let defer = |s: &RuleSpec| {
            Rule::deferred(
                s.name.into(),
                s.doc.into(),
                s.lhs.into(),
                s.rhs.into(),
                s,
                &reg,
            )
        };
        let r = defer(&spec("(fadd (fmul ?a ?b) ?c)", "(fma ?a ?b ?c)")).expect("root");
        assert_eq!(r.root_op(), Some(Kind::pure(crate::ir::PureOp::Fadd)));
        assert_eq!(r.search_depth, 2);
        r.check().expect("well-formed");
        // The head is read now: an unknown root operation or no operation fails at once ...
        assert!(defer(&spec("(frob ?a)", "?a")).is_err());
        assert!(defer(&spec("?a", "?a")).is_err());
        // ... the rest when the rule is checked (or first searched).
        let bad = defer(&spec("(fneg ?a)", "(fneg ?b)")).expect("head reads");
        assert!(matches!(bad.check(), Err(RuleError::Invalid { .. })));
        let bad = defer(&spec("(fneg (frob ?a))", "?a")).expect("head reads");
        assert!(matches!(bad.check(), Err(RuleError::Term { .. })));
        // A rule built eagerly reports them at once.
        assert!(Rule::from_spec(&spec("(fneg ?a)", "(fneg ?b)"), &reg).is_err());
    }

    #[test]
    fn search_depth_reaches_the_deepest_variable() {
        let reg = OpRegistry::new();
        let spec = |lhs| RuleSpec::new("r", "d", lhs, "?a");
        let d = |lhs| Rule::from_spec(&spec(lhs), &reg).expect(lhs).search_depth;
        assert_eq!(d("(fneg ?a)"), 1);
        assert_eq!(d("(fadd (fmul ?a ?b) ?c)"), 2);
        assert_eq!(d("(select (not (flt ?a ?b)) ?a ?c)"), 3);
        assert_eq!(d("(fmul ?a 1)"), 1);
    }
}
