//! The rule soundness checker: both sides of every rule evaluated on random inputs with the IR's
//! own evaluation functions.
//!
//! For each rule, the checker builds left sides (a pattern's variables instantiated with typed
//! leaves or constants, for every typing the operation table allows; or the rule's own examples),
//! puts each into a fresh e-graph *without* constant folding, applies the rule once and then checks
//! the whole e-graph: every e-class gets a reference value (from the original term, or from its
//! single e-node for classes the rule created), and every e-node in every class must evaluate, from
//! its operands' values, to its class's value within the rule's [`Tolerance`]. That checks each
//! union the rule made, whatever code made it. Leaves take random values from the rule's
//! [`Domain`] (NaN, infinities, signed zeros, denormals and integer extremes are drawn often).
//! Texture samples evaluate through a model of what they read ([`texture_model`]).
//!
//! A rule that never fires on the generated left sides is reported too (the check would be
//! vacuous): give it [`RuleSpec::examples`](super::rules::RuleSpec::examples).
//!
//! Any target's rules are checked the same way: `check_rules(target.rules(), ..)`.

pub mod inputs;
pub mod texture_model;

use super::analysis::{eval_kind, node_type, EGraph, FactAnalysis};
use super::language::{Kind, Node};
use super::rules::{Domain, Origin, Rule, RuleError, Tolerance};
use super::synth::Rng;
use super::term::{operand_types, Term};
use crate::ir::{Const, EffectOp, Signature, Type, Value};
use egg::{Id, Language};
use std::collections::HashMap;

/// How hard to look.
#[derive(Clone, Copy, Debug)]
pub struct CheckConfig {
    /// Seed of the random inputs.
    pub seed: u64,
    /// Left sides instantiated per typing of a pattern.
    pub instances: usize,
    /// Random input assignments per left side.
    pub inputs: usize,
    /// The rule must have fired on at least this many left sides.
    pub min_firings: usize,
}

impl Default for CheckConfig {
    fn default() -> Self {
        CheckConfig {
            seed: 0x5eed,
            instances: 96,
            inputs: 24,
            min_firings: 3,
        }
    }
}

/// What the check saw for one rule.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleStats {
    /// The rule.
    pub name: String,
    /// Left sides it fired on.
    pub firings: usize,
    /// E-node/class comparisons made.
    pub comparisons: usize,
}

/// A failed check.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Unsound {
    /// Two members of one e-class evaluate differently.
    #[error("{0}")]
    Mismatch(Box<Mismatch>),
    /// The rule did not fire often enough for the check to mean anything.
    #[error("rule `{rule}` fired on only {firings} generated left sides")]
    NeverFired {
        /// The rule.
        rule: String,
        /// Times it fired.
        firings: usize,
    },
    /// The rule does not parse (a deferred rule is parsed when first needed).
    #[error("{0}")]
    Malformed(RuleError),
}

/// Where two members of an e-class disagree.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("rule `{rule}` is unsound on {lhs} with inputs [{inputs}]: {node} gives {got}, expected {expected}")]
pub struct Mismatch {
    /// The rule.
    pub rule: String,
    /// The left side.
    pub lhs: String,
    /// The e-node that disagrees.
    pub node: String,
    /// The leaves' values.
    pub inputs: String,
    /// The class's value.
    pub expected: String,
    /// The e-node's value.
    pub got: String,
}

/// A runtime value: a scalar, or a sample's result as the texture model describes it.
#[derive(Clone, Debug, PartialEq)]
enum Val {
    Scalar(Const),
    Texel(Vec<f64>),
}

impl core::fmt::Display for Val {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Val::Scalar(c) => write!(f, "{c}:{}", c.ty()),
            Val::Texel(v) => write!(f, "{v:?}"),
        }
    }
}

/// Checks every rule; all failures are returned.
pub fn check_rules(rules: &[Rule], cfg: &CheckConfig) -> Result<Vec<RuleStats>, Vec<Unsound>> {
    let mut stats = Vec::new();
    let mut errors = Vec::new();
    for r in rules {
        match check_rule(r, cfg) {
            Ok(s) => stats.push(s),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(stats)
    } else {
        Err(errors)
    }
}

/// Checks one rule.
pub fn check_rule(rule: &Rule, cfg: &CheckConfig) -> Result<RuleStats, Unsound> {
    let mut rng = Rng::new(cfg.seed ^ hash(&rule.name));
    // Rules are parsed at first use; this parses the rest of one (and checks its depth).
    rule.check().map_err(Unsound::Malformed)?;
    let mut lhss: Vec<Term> = Vec::new();
    if let Origin::Pattern(sides) = &rule.origin {
        let (lhs, _) = sides.terms().map_err(Unsound::Malformed)?;
        for typing in typings(lhs) {
            for _ in 0..cfg.instances {
                lhss.push(instantiate(lhs, &typing, &mut rng, rule.domain));
            }
        }
    }
    if let Origin::Custom(examples) = &rule.origin {
        lhss.extend(examples());
    }
    if let Some(examples) = rule.examples {
        lhss.extend(examples());
    }
    let mut stats = RuleStats {
        name: rule.name.to_string(),
        firings: 0,
        comparisons: 0,
    };
    for lhs in &lhss {
        check_instance(rule, lhs, cfg, &mut rng, &mut stats)?;
    }
    if stats.firings < cfg.min_firings {
        return Err(Unsound::NeverFired {
            rule: rule.name.to_string(),
            firings: stats.firings,
        });
    }
    Ok(stats)
}

fn hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// The type of `t` if it checks against the operation table with variable types `env`.
fn check_type(t: &Term, expected: Option<Type>, env: &HashMap<String, Type>) -> Option<Type> {
    let ty = match t {
        Term::Var(n, _) => *env.get(n)?,
        Term::Lit(l) => {
            let e = expected?;
            l.to_const(e)?;
            e
        }
        Term::Node(k, kids) => {
            let known: Vec<Option<Type>> = kids
                .iter()
                .map(|kid| match kid {
                    Term::Lit(l) => l.natural_type(),
                    other => check_type(other, None, env),
                })
                .collect();
            let want = operand_types(*k, expected, &known);
            let tys: Option<Vec<Type>> = kids
                .iter()
                .zip(&want)
                .zip(&known)
                .map(|((kid, w), kn)| check_type(kid, w.or(*kn), env))
                .collect();
            let tys = tys?;
            let opt: Vec<Option<Type>> = tys.iter().map(|&t| Some(t)).collect();
            let r = node_type(*k, &opt)?;
            if let Some(sig @ Signature::Convert { .. }) = k.signature() {
                sig.check(&tys, r).ok()?;
            }
            r
        }
    };
    match expected {
        Some(e) if e != ty => None,
        _ => Some(ty),
    }
}

/// Every assignment of types to the pattern's variables that the table accepts.
fn typings(lhs: &Term) -> Vec<HashMap<String, Type>> {
    let vars: Vec<(String, Option<Type>)> = lhs.vars();
    let mut out = Vec::new();
    let n = vars.len();
    let total = 6usize.pow(n as u32);
    for code in 0..total {
        let mut env = HashMap::new();
        let mut c = code;
        let mut fixed_ok = true;
        for (name, fixed) in &vars {
            let t = Type::ALL[c % 6];
            c /= 6;
            if fixed.is_some_and(|f| f != t) {
                fixed_ok = false;
            }
            env.insert(name.clone(), t);
        }
        if fixed_ok && check_type(lhs, None, &env).is_some() {
            out.push(env);
        }
    }
    out
}

/// The pattern with each variable a typed leaf (`Term::Var` with its type) or a constant, and
/// each literal a typed constant.
fn instantiate(t: &Term, env: &HashMap<String, Type>, rng: &mut Rng, domain: Domain) -> Term {
    let mut consts: HashMap<String, Option<Const>> = HashMap::new();
    for (name, &ty) in env {
        let c = rng.chance(0.5).then(|| inputs::constant(rng, ty, domain));
        consts.insert(name.clone(), c);
    }
    fn go(
        t: &Term,
        expected: Option<Type>,
        env: &HashMap<String, Type>,
        consts: &HashMap<String, Option<Const>>,
    ) -> Term {
        match t {
            Term::Var(n, _) => match consts.get(n).copied().flatten() {
                Some(c) => Term::Node(Kind::Const(c), vec![]),
                None => Term::Var(n.clone(), env.get(n).copied()),
            },
            Term::Lit(l) => match expected.and_then(|e| l.to_const(e)) {
                Some(c) => Term::Node(Kind::Const(c), vec![]),
                None => Term::Lit(*l),
            },
            Term::Node(k, kids) => {
                let known: Vec<Option<Type>> = kids
                    .iter()
                    .map(|kid| match kid {
                        Term::Lit(l) => l.natural_type(),
                        other => check_type(other, None, env),
                    })
                    .collect();
                let want = operand_types(*k, expected, &known);
                let kids = kids
                    .iter()
                    .zip(want.iter().zip(&known))
                    .map(|(kid, (w, kn))| go(kid, w.or(*kn), env, consts))
                    .collect();
                Term::Node(*k, kids)
            }
        }
    }
    go(t, None, env, &consts)
}

/// Adds a concrete term (variables are leaves) to the e-graph; records each subterm's class.
fn add_term(
    eg: &mut EGraph,
    t: &Term,
    leaves: &mut Vec<(String, Type)>,
    subterms: &mut Vec<(Id, Term)>,
) -> Option<Id> {
    let id = match t {
        Term::Var(n, ty) => {
            let ty = (*ty)?;
            let idx = match leaves.iter().position(|(m, _)| m == n) {
                Some(i) => i,
                None => {
                    leaves.push((n.clone(), ty));
                    leaves.len() - 1
                }
            };
            eg.add(Node::leaf(Kind::Leaf {
                value: Value::from_u32(idx as u32),
                ty,
            }))
        }
        Term::Lit(_) => return None,
        Term::Node(k, kids) => {
            let ids: Option<Vec<Id>> = kids
                .iter()
                .map(|kid| add_term(eg, kid, leaves, subterms))
                .collect();
            eg.add(Node::new(*k, &ids?))
        }
    };
    subterms.push((id, t.clone()));
    Some(id)
}

fn eval_node(
    eg: &EGraph,
    node: &Node,
    class: Id,
    vals: &HashMap<Id, Val>,
    inputs: &[Const],
) -> Option<Val> {
    let kids: Option<Vec<&Val>> = node
        .children()
        .iter()
        .map(|c| vals.get(&eg.find(*c)))
        .collect();
    let kids = kids?;
    let scalars: Option<Vec<Const>> = kids
        .iter()
        .map(|v| match v {
            Val::Scalar(c) => Some(*c),
            Val::Texel(_) => None,
        })
        .collect();
    match node.kind {
        Kind::Leaf { value, .. } => inputs.get(value.as_u32() as usize).map(|c| Val::Scalar(*c)),
        Kind::Sample(op) => texture_model::sample(&op, &scalars?).map(Val::Texel),
        Kind::Invariant {
            op: EffectOp::TexSize(s),
            index,
            ty,
        } => {
            let level = scalars?.first()?.as_i64();
            Some(Val::Scalar(Const::int(
                ty,
                texture_model::size(&s, level, index as usize),
            )))
        }
        Kind::Invariant { .. } => None,
        kind => {
            let ty = eg[class].data.ty?;
            eval_kind(kind, &scalars?, ty).map(Val::Scalar)
        }
    }
}

fn ulp(ty: Type, x: f64) -> f64 {
    let (min_exp, mant) = match ty {
        Type::F16 => (-14, 10),
        _ => (-126, 23),
    };
    let a = x.abs();
    let e = if a == 0.0 || !a.is_finite() {
        min_exp
    } else {
        (a.log2().floor() as i32).max(min_exp)
    };
    2f64.powi(e - mant)
}

fn floats_agree(a: f64, b: f64, slack: f64) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    if a.is_infinite() || b.is_infinite() {
        return a == b;
    }
    (a - b).abs() <= slack
}

/// What the reference values of one evaluation look like, for the tolerances that depend on
/// the original computation.
#[derive(Clone, Copy)]
struct RefRange {
    /// The largest finite magnitude among the float reference values ([`Tolerance::Fused`],
    /// [`Tolerance::AbsPerUnit`]).
    largest: f64,
    /// The largest finite magnitude among the left side's float leaves, inputs and constants
    /// ([`Tolerance::AbsPerUnit`]).
    largest_input: f64,
    /// Some float reference value is infinite.
    overflowed: bool,
    /// Some float reference value is subnormal.
    subnormal: bool,
}

/// Whether a float of type `ty` with value `x` is subnormal (nonzero, below the least normal).
fn is_subnormal(ty: Type, x: f64) -> bool {
    let least_normal = match ty {
        Type::F16 => 2f64.powi(-14),
        _ => f64::from(f32::MIN_POSITIVE),
    };
    x != 0.0 && x.abs() < least_normal
}

/// Whether `got` agrees with `want` under the tolerance, given the reference values' `range`.
fn agree(tol: Tolerance, want: &Val, got: &Val, range: RefRange) -> bool {
    let RefRange {
        largest,
        largest_input,
        overflowed,
        subnormal,
    } = range;
    if tol == Tolerance::ExactInRange && (overflowed || subnormal) {
        return true;
    }
    match (want, got) {
        (Val::Scalar(w), Val::Scalar(g)) => {
            if w.ty() != g.ty() {
                return false;
            }
            if !w.ty().is_float() || matches!(tol, Tolerance::Exact | Tolerance::ExactInRange) {
                return w == g || (w.is_nan() && g.is_nan());
            }
            let (a, b) = (w.as_f64(), g.as_f64());
            match tol {
                Tolerance::Exact | Tolerance::ExactInRange => unreachable!("handled above"),
                Tolerance::Ulps(n) => {
                    floats_agree(a, b, n as f64 * ulp(w.ty(), a.abs().max(b.abs())))
                }
                Tolerance::Abs(eps) => floats_agree(a, b, eps),
                Tolerance::AbsPerUnit { base, per_unit } => {
                    floats_agree(a, b, base + per_unit * largest_input)
                }
                Tolerance::Fused => overflowed || floats_agree(a, b, ulp(w.ty(), largest)),
            }
        }
        (Val::Texel(w), Val::Texel(g)) => {
            w.len() == g.len()
                && w.iter().zip(g).all(|(&a, &b)| match tol {
                    Tolerance::Exact | Tolerance::ExactInRange => {
                        a == b || (a.is_nan() && b.is_nan())
                    }
                    Tolerance::Abs(eps) => floats_agree(a, b, eps),
                    _ => floats_agree(a, b, 1e-6 * a.abs().max(1.0)),
                })
        }
        _ => false,
    }
}

fn check_instance(
    rule: &Rule,
    lhs: &Term,
    cfg: &CheckConfig,
    rng: &mut Rng,
    stats: &mut RuleStats,
) -> Result<(), Unsound> {
    let mut eg = EGraph::new(FactAnalysis {
        fold_constants: false,
    });
    let mut leaves = Vec::new();
    let mut subterms = Vec::new();
    if add_term(&mut eg, lhs, &mut leaves, &mut subterms).is_none() {
        return Ok(());
    }
    eg.rebuild();
    let matches = rule.rewrite.search(&eg);
    let applied = rule.rewrite.apply(&mut eg, &matches);
    eg.rebuild();
    if applied.is_empty() {
        return Ok(());
    }
    stats.firings += 1;
    for _ in 0..cfg.inputs {
        let inputs: Vec<Const> = leaves
            .iter()
            .map(|&(_, ty)| inputs::value(rng, ty, rule.domain))
            .collect();
        // Reference values: the original term's subterms.
        let mut vals: HashMap<Id, Val> = HashMap::new();
        let mut refs: Vec<(Id, Val)> = Vec::new();
        // The left side's float leaves: its inputs and its constants (a drawn `(sin 761.0)` is
        // as large an argument as an input of 761.0).
        let mut largest_input = 0.0f64;
        for (id, t) in &subterms {
            let c = eg.find(*id);
            let v = eval_term(t, &leaves, &inputs);
            if let Some(v) = v {
                let leaf = match t {
                    Term::Var(..) => true,
                    Term::Node(_, kids) => kids.is_empty(),
                    Term::Lit(_) => false,
                };
                if let (true, Val::Scalar(k)) = (leaf, &v) {
                    if k.ty().is_float() && k.as_f64().is_finite() {
                        largest_input = largest_input.max(k.as_f64().abs());
                    }
                }
                refs.push((c, v.clone()));
                vals.entry(c).or_insert(v);
            }
        }
        let mut range = RefRange {
            largest: 0.0,
            largest_input,
            overflowed: false,
            subnormal: false,
        };
        for (_, v) in &refs {
            if let Val::Scalar(c) = v {
                let x = c.as_f64();
                if !c.ty().is_float() || x.is_nan() {
                    continue;
                }
                if x.is_infinite() {
                    range.overflowed = true;
                } else {
                    range.largest = range.largest.max(x.abs());
                    range.subnormal |= is_subnormal(c.ty(), x);
                }
            }
        }
        // Classes the rule created: from their e-nodes, until nothing changes.
        loop {
            let mut progress = false;
            for class in eg.classes() {
                if vals.contains_key(&class.id) {
                    continue;
                }
                if let Some(v) = class
                    .nodes
                    .iter()
                    .find_map(|n| eval_node(&eg, n, class.id, &vals, &inputs))
                {
                    vals.insert(class.id, v);
                    progress = true;
                }
            }
            if !progress {
                break;
            }
        }
        let show_inputs = || {
            leaves
                .iter()
                .zip(&inputs)
                .map(|((n, _), c)| format!("?{n} = {c}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        for (c, v) in &refs {
            stats.comparisons += 1;
            if !agree(rule.tolerance, &vals[c], v, range) {
                return Err(Unsound::Mismatch(Box::new(Mismatch {
                    rule: rule.name.to_string(),
                    lhs: lhs.to_string(),
                    node: format!("a subterm of the left side in e-class {c}"),
                    inputs: show_inputs(),
                    expected: vals[c].to_string(),
                    got: v.to_string(),
                })));
            }
        }
        for class in eg.classes() {
            let Some(want) = vals.get(&class.id) else {
                continue;
            };
            for n in &class.nodes {
                let Some(got) = eval_node(&eg, n, class.id, &vals, &inputs) else {
                    continue;
                };
                stats.comparisons += 1;
                if !agree(rule.tolerance, want, &got, range) {
                    let node = n.kind.to_string();
                    return Err(Unsound::Mismatch(Box::new(Mismatch {
                        rule: rule.name.to_string(),
                        lhs: lhs.to_string(),
                        node: format!("{node} (in e-class {})", class.id),
                        inputs: show_inputs(),
                        expected: want.to_string(),
                        got: got.to_string(),
                    })));
                }
            }
        }
    }
    Ok(())
}

/// Evaluates a concrete term directly (the reference semantics of the left side).
fn eval_term(t: &Term, leaves: &[(String, Type)], inputs: &[Const]) -> Option<Val> {
    match t {
        Term::Var(n, _) => {
            let i = leaves.iter().position(|(m, _)| m == n)?;
            Some(Val::Scalar(inputs[i]))
        }
        Term::Lit(_) => None,
        Term::Node(k, kids) => {
            let vals: Option<Vec<Val>> = kids
                .iter()
                .map(|kid| eval_term(kid, leaves, inputs))
                .collect();
            let vals = vals?;
            let scalars: Option<Vec<Const>> = vals
                .iter()
                .map(|v| match v {
                    Val::Scalar(c) => Some(*c),
                    Val::Texel(_) => None,
                })
                .collect();
            match k {
                Kind::Sample(op) => texture_model::sample(op, &scalars?).map(Val::Texel),
                Kind::Leaf { .. } | Kind::Invariant { .. } => None,
                kind => {
                    let scalars = scalars?;
                    let tys: Vec<Option<Type>> = scalars.iter().map(|c| Some(c.ty())).collect();
                    let ty = node_type(*kind, &tys)?;
                    eval_kind(*kind, &scalars, ty).map(Val::Scalar)
                }
            }
        }
    }
}
