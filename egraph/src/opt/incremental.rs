//! Incremental rule search: after a rule's first complete search, it is searched again only
//! where the e-graph changed close enough to create a new match.
//!
//! `egg`'s runner searches every rule over the whole e-graph in every iteration. The late
//! iterations of a run apply a handful of rewrites but still pay a full search each, and a
//! larger function tends to need one or two more of them (its longest rewrite chain is longer),
//! so optimization time grew faster than the function. This scheduler applies semi-naive
//! evaluation (Datalog's: each round only joins against what the previous round derived) to
//! e-matching:
//!
//! - Before each iteration's search every e-class gets a fingerprint, a hash of its canonical
//!   e-nodes and its analysis facts. A class whose fingerprint differs from the previous
//!   iteration's, or that is new, *changed*: it gained e-nodes (a rule, a merge), lost some
//!   (constant folding prunes folded classes), an e-node's operand was renamed by a merge, or
//!   its facts changed.
//! - A match of a rule at class `c` reads the e-nodes and facts of classes at most
//!   [`Rule::search_depth`] levels below `c` (guards read only the classes the pattern binds).
//!   It can be new only if one of those changed, so the classes to search are the changed ones
//!   and their ancestors up to that many levels up, found through the e-graph's parent lists.
//! - A rule searches incrementally only if it searched completely in the previous iteration;
//!   otherwise (its first search, or its first after a ban) it searches everything.
//!
//! Matches an incremental search skips were found and applied before, and applying them again
//! would change nothing, so with no rule banned a run reaches the e-graph a full search would.
//! Work per iteration after the first is proportional to what changed, not to the e-graph. A
//! fingerprint collision (a change whose 64-bit hash equals the old one) could only hide a match,
//! which costs an optimization, never correctness: rules only add equalities that hold.
//!
//! Rule backoff follows `egg`'s `BackoffScheduler`: a rule that finds more than its match limit
//! of matches in one search is banned for a number of iterations, and limit and ban length
//! double each time; mandatory rules are never banned. Only new matches count, so a rule with
//! many old matches on a large function is not throttled for them.
//!
//! An iteration's searches, full and incremental, run together in one pass over the classes
//! (`batch`), each rule finding exactly what it finds searched alone.

use super::analysis::{EGraph, FactAnalysis};
use super::clock::EggClock;
use super::language::{Kind, Node};
use super::rules::{ClassSearcher, Rule};
use egg::{
    Id, Language, PatternAst, Rewrite, RewriteScheduler, RunnerLimits, RunnerResult, SearchMatches,
    Symbol,
};
use std::cell::Cell;
// Looked up per rule and iteration; neither map's order reaches the output.
use rustc_hash::FxHashMap as HashMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

mod batch;

/// Not within any rule's reach of a change.
const FAR: u8 = u8::MAX;

/// What the scheduler keeps per rule.
#[derive(Clone, Copy, Debug)]
struct RuleState {
    /// How far below its root a match reads.
    depth: usize,
    /// Never banned (and never limited).
    mandatory: bool,
    /// The operation at the root of its left side, if known without building the rule.
    root: Option<Kind>,
    /// Matches only classes holding a sample e-node ([`Rule::sample_root`]).
    samples: bool,
    times_banned: u32,
    banned_until: usize,
    /// The iteration of the rule's last complete search.
    searched_at: Option<usize>,
}

/// How much searching a run did (for tests and the benchmark).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Searches over the whole e-graph.
    pub full: usize,
    /// Searches restricted to changed neighbourhoods.
    pub incremental: usize,
    /// E-classes visited by incremental searches.
    pub classes_visited: usize,
}

/// A backoff scheduler that searches incrementally (see the module docs).
pub struct IncrementalScheduler {
    rules: HashMap<Symbol, RuleState>,
    /// The pattern rules' left sides, searched class by class (`batch`).
    searchers: HashMap<Symbol, ClassSearcher>,
    match_limit: usize,
    ban_length: usize,
    /// The deepest reach of any rule: how far up changes are propagated.
    max_depth: usize,
    /// Fingerprint per class id as of the last snapshot (0: none).
    prints: Vec<u64>,
    /// Per class id: distance above the nearest change (`FAR` if beyond every rule's reach).
    dist: Vec<u8>,
    /// The classes within reach of a change, by id.
    near: Vec<Id>,
    /// The same classes that hold a sample e-node (what the texture rules match).
    near_samples: Vec<Id>,
    /// The operations each class of `near` holds, flat: those of `near[j]` end at
    /// `near_kind_ends[j]` (for the batched search, which visits `near` once for all rules).
    near_kinds: Vec<Kind>,
    near_kind_ends: Vec<u32>,
    /// Whether a snapshot was taken before (the first iteration searches everything).
    primed: bool,
    /// Search every rule over the whole e-graph in every iteration (egg's behaviour).
    always_full: bool,
    /// Shared with the caller: the runner owns the scheduler during the run.
    stats: Rc<Cell<SearchStats>>,
    /// The clock `egg` reads, advanced before each look at the time limit.
    clock: Option<Rc<EggClock>>,
}

impl IncrementalScheduler {
    /// A scheduler for `rules`: a rule may find `match_limit` matches in one search before it
    /// is banned for `ban_length` iterations (both doubling with each ban).
    pub fn new(rules: &[Rule], match_limit: usize, ban_length: usize) -> IncrementalScheduler {
        let states: HashMap<Symbol, RuleState> = rules
            .iter()
            .map(|r| {
                let state = RuleState {
                    depth: r.search_depth,
                    mandatory: r.mandatory,
                    root: r.root_op(),
                    samples: r.sample_root,
                    times_banned: 0,
                    banned_until: 0,
                    searched_at: None,
                };
                (r.rewrite.name, state)
            })
            .collect();
        let max_depth = rules.iter().map(|r| r.search_depth).max().unwrap_or(0);
        // Sized once (a `filter_map` gives no length hint: the map would grow and rehash).
        let mut searchers = HashMap::with_capacity_and_hasher(rules.len(), Default::default());
        searchers.extend(
            rules
                .iter()
                .filter_map(|r| Some((r.rewrite.name, r.class_searcher()?))),
        );
        IncrementalScheduler {
            rules: states,
            searchers,
            match_limit,
            ban_length,
            // `dist` holds distances in a byte; no real pattern comes near.
            max_depth: max_depth.min(usize::from(FAR) - 1),
            prints: Vec::new(),
            dist: Vec::new(),
            near: Vec::new(),
            near_samples: Vec::new(),
            near_kinds: Vec::new(),
            near_kind_ends: Vec::new(),
            primed: false,
            always_full: false,
            stats: Rc::default(),
            clock: None,
        }
    }

    /// The same scheduler advancing `clock` (the one `egg` reads during the run) to the real
    /// time before each check of the runner's limits and after each rule's application.
    pub fn with_clock(mut self, clock: Rc<EggClock>) -> IncrementalScheduler {
        self.clock = Some(clock);
        self
    }

    fn sync_clock(&self) {
        if let Some(c) = &self.clock {
            c.sync();
        }
    }

    /// The same scheduler searching every rule over the whole e-graph in every iteration, as
    /// `egg`'s own schedulers do (for comparisons in tests and benchmarks).
    pub fn always_full(mut self) -> IncrementalScheduler {
        self.always_full = true;
        self
    }

    /// A handle on the search statistics, readable after the runner has consumed the scheduler.
    pub fn stats(&self) -> Rc<Cell<SearchStats>> {
        Rc::clone(&self.stats)
    }

    fn count(&self, f: impl FnOnce(&mut SearchStats)) {
        let mut s = self.stats.get();
        f(&mut s);
        self.stats.set(s);
    }

    /// Fingerprints every class, and finds the classes within reach of a change since the
    /// previous snapshot.
    fn snapshot(&mut self, egraph: &EGraph) {
        let n = egraph.nodes().len();
        for &c in &self.near {
            if let Some(d) = self.dist.get_mut(usize::from(c)) {
                *d = FAR;
            }
        }
        self.near.clear();
        self.near_samples.clear();
        self.near_kinds.clear();
        self.near_kind_ends.clear();
        self.prints.resize(n, 0);
        self.dist.resize(n, FAR);
        let mut frontier: Vec<Id> = Vec::new();
        // The classes by id, from the one pass over them: looking a class up by id in `egg`
        // hashes into a table that outgrows the caches in large functions.
        let mut by_id: Vec<Option<&egg::EClass<Node, super::analysis::Facts>>> = vec![None; n];
        for class in egraph.classes() {
            if let Some(slot) = by_id.get_mut(usize::from(class.id)) {
                *slot = Some(class);
            }
            let print = fingerprint(&class.nodes, &class.data);
            let slot = &mut self.prints[usize::from(class.id)];
            if *slot != print {
                *slot = print;
                frontier.push(class.id);
            }
        }
        if !std::mem::replace(&mut self.primed, true) {
            // The first search is complete anyway.
            return;
        }
        for &c in &frontier {
            self.dist[usize::from(c)] = 0;
        }
        self.near.extend_from_slice(&frontier);
        for level in 1..=self.max_depth {
            let mut next = Vec::new();
            for &c in &frontier {
                let class = by_id
                    .get(usize::from(c))
                    .copied()
                    .flatten()
                    .unwrap_or_else(|| &egraph[c]);
                for p in class.parents() {
                    let p = egraph.find(p);
                    let d = &mut self.dist[usize::from(p)];
                    if *d == FAR {
                        *d = level as u8;
                        next.push(p);
                    }
                }
            }
            self.near.extend_from_slice(&next);
            frontier = next;
        }
        self.near.sort_unstable();
        for &c in &self.near {
            let mut last = None;
            let mut sample = false;
            // Nodes are sorted, so equal operations are adjacent.
            let class = by_id
                .get(usize::from(c))
                .copied()
                .flatten()
                .unwrap_or_else(|| &egraph[c]);
            for node in &class.nodes {
                if last != Some(node.kind) {
                    last = Some(node.kind);
                    self.near_kinds.push(node.kind);
                    sample |= matches!(node.kind, Kind::Sample(_));
                }
            }
            self.near_kind_ends.push(self.near_kinds.len() as u32);
            if sample {
                self.near_samples.push(c);
            }
        }
    }

    /// Searches `rw` in the classes within `depth` of a change, in id order.
    fn search_near<'a>(
        &mut self,
        egraph: &EGraph,
        rw: &'a Rewrite<Node, FactAnalysis>,
        root: Option<Kind>,
        samples: bool,
        depth: usize,
        mut limit: usize,
    ) -> Vec<SearchMatches<'a, Node>> {
        let dist = &self.dist;
        // The rule's own root (a lazily built rule's pattern is not asked for: that would
        // build it); a rule the scheduler was not told about, its pattern's.
        let holding;
        let near = match root.or_else(|| root_op(rw.searcher.get_pattern_ast())) {
            // (A pattern only matches classes holding its root operation.)
            Some(op) => {
                holding = self.near_holding(op);
                &holding[..]
            }
            None if samples => &self.near_samples[..],
            None => &self.near[..],
        };
        let within = |c: &&Id| usize::from(dist[usize::from(**c)]) <= depth;
        let visited = near.iter().filter(within).count();
        let mut stats = self.stats.get();
        stats.incremental += 1;
        stats.classes_visited += visited;
        self.stats.set(stats);
        let mut out = Vec::new();
        for &c in near.iter().filter(within) {
            if limit == 0 {
                break;
            }
            if let Some(m) = rw.searcher.search_eclass_with_limit(egraph, c, limit) {
                limit = limit.saturating_sub(m.substs.len());
                out.push(m);
            }
        }
        out
    }

    /// The classes of `near` holding an `op` e-node, in id order. (Only a rule searched by
    /// itself asks; the batched search reads `near_kinds` directly, so the snapshot no longer
    /// groups the classes by operation in a hash map every iteration.)
    fn near_holding(&self, op: Kind) -> Vec<Id> {
        let mut out = Vec::new();
        let mut start = 0;
        for (&c, &end) in self.near.iter().zip(&self.near_kind_ends) {
            let kinds = &self.near_kinds[start..end as usize];
            start = end as usize;
            out.extend(kinds.iter().filter(|&&k| k == op).map(|_| c));
        }
        out
    }

    /// How `rw` is searched in `iteration`, and the most matches it may find before it is
    /// banned (`egg`'s backoff: the limit doubles with each ban; mandatory rules have none).
    fn plan(&mut self, iteration: usize, rw: &Rewrite<Node, FactAnalysis>) -> (Plan, usize) {
        let max_depth = self.max_depth;
        let state = *self.rules.entry(rw.name).or_insert(RuleState {
            // A rule the scheduler was not told about: assume the deepest reach.
            depth: max_depth,
            mandatory: false,
            root: None,
            samples: false,
            times_banned: 0,
            banned_until: 0,
            searched_at: None,
        });
        if iteration < state.banned_until {
            return (Plan::Banned, 0);
        }
        let threshold = if state.mandatory {
            usize::MAX
        } else {
            let factor = 1usize.checked_shl(state.times_banned).unwrap_or(usize::MAX);
            self.match_limit.saturating_mul(factor)
        };
        let incremental = !self.always_full
            && state.searched_at.is_some()
            && state.searched_at == iteration.checked_sub(1);
        let limit = threshold.saturating_add(1);
        let plan = if incremental {
            Plan::Near {
                root: state.root,
                samples: state.samples,
                depth: state.depth.min(max_depth),
                limit,
            }
        } else {
            Plan::Full { limit }
        };
        (plan, threshold)
    }

    /// One rule's search by itself (`None` when it is banned).
    fn search_one<'a>(
        &mut self,
        egraph: &EGraph,
        rw: &'a Rewrite<Node, FactAnalysis>,
        plan: Plan,
    ) -> Option<Vec<SearchMatches<'a, Node>>> {
        match plan {
            Plan::Banned => None,
            Plan::Full { limit } => {
                self.count(|s| s.full += 1);
                Some(rw.search_with_limit(egraph, limit))
            }
            Plan::Near {
                root,
                samples,
                depth,
                limit,
            } => Some(self.search_near(egraph, rw, root, samples, depth, limit)),
        }
    }

    /// Bans `rw` if it found more than `threshold` matches (then it applies none), else
    /// records its complete search.
    fn settle<'a>(
        &mut self,
        iteration: usize,
        rw: &Rewrite<Node, FactAnalysis>,
        threshold: usize,
        matches: Vec<SearchMatches<'a, Node>>,
    ) -> Vec<SearchMatches<'a, Node>> {
        let found: usize = matches.iter().map(|m| m.substs.len()).sum();
        let Some(state) = self.rules.get_mut(&rw.name) else {
            return matches;
        };
        if found > threshold {
            let length = self
                .ban_length
                .saturating_mul(1usize.checked_shl(state.times_banned).unwrap_or(usize::MAX));
            state.times_banned = state.times_banned.saturating_add(1);
            state.banned_until = iteration.saturating_add(length);
            state.searched_at = None;
            return Vec::new();
        }
        state.searched_at = Some(iteration);
        matches
    }
}

/// How a rule is searched in one iteration.
#[derive(Clone, Copy, Debug)]
enum Plan {
    /// Banned: not at all.
    Banned,
    /// Over the whole e-graph, up to `limit` matches.
    Full { limit: usize },
    /// In the classes within `depth` of a change holding `root` (or a sample e-node, or any),
    /// up to `limit` matches.
    Near {
        root: Option<Kind>,
        samples: bool,
        depth: usize,
        limit: usize,
    },
}

/// The operation at the root of a pattern, if the searcher has one.
fn root_op(ast: Option<&PatternAst<Node>>) -> Option<Kind> {
    match ast?.as_ref().last()? {
        egg::ENodeOrVar::ENode(n) => Some(n.discriminant()),
        egg::ENodeOrVar::Var(_) => None,
    }
}

/// A class's fingerprint: its canonical e-nodes (egg keeps them sorted and deduplicated after a
/// rebuild) and its facts. Never 0, which marks "no fingerprint yet".
fn fingerprint(nodes: &[Node], facts: &super::analysis::Facts) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    nodes.hash(&mut h);
    facts.ty.hash(&mut h);
    facts.konst.hash(&mut h);
    facts.uniform.hash(&mut h);
    h.finish() | 1
}

impl RewriteScheduler<Node, FactAnalysis> for IncrementalScheduler {
    fn can_stop(&mut self, iteration: usize) -> bool {
        // As egg's backoff scheduler: the run may only stop once no rule is banned; otherwise
        // the bans are shortened so that the earliest ends now.
        let banned = self.rules.values().filter(|s| s.banned_until > iteration);
        let Some(min_ban) = banned.map(|s| s.banned_until).min() else {
            return true;
        };
        let delta = min_ban - iteration;
        for s in self.rules.values_mut() {
            if s.banned_until > iteration {
                s.banned_until -= delta;
            }
        }
        false
    }

    fn search_rewrites<'a>(
        &mut self,
        iteration: usize,
        egraph: &EGraph,
        rewrites: &[&'a Rewrite<Node, FactAnalysis>],
        limits: &RunnerLimits,
    ) -> RunnerResult<Vec<Vec<SearchMatches<'a, Node>>>> {
        self.snapshot(egraph);
        let plans: Vec<(Plan, usize)> =
            rewrites.iter().map(|rw| self.plan(iteration, rw)).collect();
        let mut all = self.search_batched(egraph, rewrites, &plans);
        for (i, rw) in rewrites.iter().enumerate() {
            if let Some(found) = all[i].take() {
                all[i] = Some(self.settle(iteration, rw, plans[i].1, found));
            }
        }
        self.sync_clock();
        limits.check_limits(iteration, egraph)?;
        Ok(all.into_iter().map(Option::unwrap_or_default).collect())
    }

    fn apply_rewrite(
        &mut self,
        _iteration: usize,
        egraph: &mut EGraph,
        rewrite: &Rewrite<Node, FactAnalysis>,
        matches: Vec<SearchMatches<Node>>,
    ) -> usize {
        let applied = rewrite.apply(egraph, &matches).len();
        self.sync_clock();
        applied
    }

    fn search_rewrite<'a>(
        &mut self,
        iteration: usize,
        egraph: &EGraph,
        rw: &'a Rewrite<Node, FactAnalysis>,
    ) -> Vec<SearchMatches<'a, Node>> {
        let (plan, threshold) = self.plan(iteration, rw);
        match self.search_one(egraph, rw, plan) {
            Some(found) => self.settle(iteration, rw, threshold, found),
            None => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{OpRegistry, PureOp, Type, Value};
    use crate::opt::language::Kind;
    use crate::opt::rules::RuleSpec;

    fn leaf(eg: &mut EGraph, n: u32) -> Id {
        eg.add(Node::leaf(Kind::Leaf {
            value: Value::from_u32(n),
            ty: Type::F32,
        }))
    }

    #[test]
    fn changes_reach_exactly_as_far_up_as_the_deepest_pattern() {
        let reg = OpRegistry::new();
        let specs = [
            RuleSpec::new("shallow", "d", "(fneg ?x)", "(fneg ?x)"),
            RuleSpec::new("deep", "d", "(fabs (fneg ?x))", "(fabs ?x)"),
        ];
        let rules = Rule::from_specs(&specs, &reg).expect("builds");
        let mut sched = IncrementalScheduler::new(&rules, 1000, 3);
        assert_eq!(sched.max_depth, 2);
        // x <- fneg <- fabs <- fsat <- fmul(., y): a chain of four parents above x.
        let mut eg = EGraph::default();
        let x = leaf(&mut eg, 0);
        let y = leaf(&mut eg, 1);
        let n1 = eg.add(Node::new(Kind::pure(PureOp::Fneg), &[x]));
        let n2 = eg.add(Node::new(Kind::pure(PureOp::Fabs), &[n1]));
        let n3 = eg.add(Node::new(Kind::pure(PureOp::Fsat), &[n2]));
        let n4 = eg.add(Node::new(Kind::pure(PureOp::Fmul), &[n3, y]));
        eg.rebuild();
        sched.snapshot(&eg);
        assert!(sched.near.is_empty(), "the first snapshot only records");
        sched.snapshot(&eg);
        assert!(sched.near.is_empty(), "nothing changed");
        // x's class gains an e-node.
        let z = leaf(&mut eg, 2);
        eg.union(x, z);
        eg.rebuild();
        sched.snapshot(&eg);
        let dist = |c: Id| sched.dist[usize::from(eg.find(c))];
        assert_eq!([x, n1, n2, n3, n4, y].map(dist), [0, 1, 2, FAR, FAR, FAR]);
        let mut near = vec![eg.find(x), n1, n2];
        near.sort_unstable();
        assert_eq!(sched.near, near);
    }
}
