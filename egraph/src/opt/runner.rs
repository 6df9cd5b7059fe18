//! Equality saturation: limits set before the run, a backoff scheduler, and the run's report.
//!
//! The limits are explicit and reported. Node and iteration limits decide where a run stops for
//! any normal-sized shader, so results are deterministic (`egg` is built with its
//! `deterministic` feature and every map the optimizer iterates is ordered); the time limit is a
//! safety net that only a pathological input reaches, and the report says when it did.
//!
//! Rules are scheduled by [`IncrementalScheduler`]: `egg`'s exponential backoff, and after a
//! rule's first search only the neighbourhoods of what changed are searched again, which keeps
//! the cost of the late, nearly idle iterations proportional to what they do rather than to the
//! function's size.

use super::analysis::{EGraph, FactAnalysis};
use super::clock::EggClock;
use super::incremental::IncrementalScheduler;
use super::language::Node;
use super::rules::Rule;
use core::fmt;
use egg::Runner;
use std::rc::Rc;
use std::time::Duration;

/// Rounds of rule application. Most rules simplify, so the useful work is done in the first few
/// rounds; twelve leave room for chains (canonicalize, then propagate a negation, then fuse).
pub const ITERATION_LIMIT: usize = 12;

/// The e-graph may grow to this many times its initial size: rules here add a bounded number of
/// forms per e-node, so a healthy run stays well below it and only a runaway rule reaches it.
pub const NODE_GROWTH_LIMIT: usize = 4;

/// Room added to the growth limit so that small functions can still grow (one sin/cos lowering
/// adds a dozen e-nodes, a cube-map LOD computation about seventy).
pub const NODE_HEADROOM: usize = 10_000;

/// A safety net against pathological inputs, far above the time any normal shader takes; when
/// it triggers the output depends on the machine, and the report says so.
pub const TIME_LIMIT: Duration = Duration::from_secs(10);

/// A rule may find this many new matches in one iteration (or the initial e-node count, if
/// larger) before the backoff scheduler bans it for [`BAN_LENGTH`] iterations: explosive rules
/// get throttled, ordinary rules on large functions do not.
pub const MATCH_LIMIT: usize = 1_000;

/// Iterations a throttled rule sits out (doubling each time it is banned again, as `egg`'s
/// backoff scheduler does).
pub const BAN_LENGTH: usize = 3;

/// The limits of one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Maximum iterations.
    pub iterations: usize,
    /// Maximum growth factor of the e-graph's size.
    pub node_growth: usize,
    /// E-nodes allowed on top of the growth factor.
    pub node_headroom: usize,
    /// Time limit (safety net).
    pub time: Duration,
    /// Per-rule match limit before backoff (at least the initial e-node count).
    pub match_limit: usize,
    /// Initial ban length.
    pub ban_length: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            iterations: ITERATION_LIMIT,
            node_growth: NODE_GROWTH_LIMIT,
            node_headroom: NODE_HEADROOM,
            time: TIME_LIMIT,
            match_limit: MATCH_LIMIT,
            ban_length: BAN_LENGTH,
        }
    }
}

impl Limits {
    /// The e-node limit for an e-graph that starts with `initial` e-nodes.
    pub fn node_limit(&self, initial: usize) -> usize {
        initial
            .saturating_mul(self.node_growth)
            .saturating_add(self.node_headroom)
    }
}

/// Why saturation stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum StopReason {
    /// No rule changed anything: every equivalent form the rules know is present.
    Saturated,
    /// The iteration limit was reached.
    IterationLimit(usize),
    /// The e-node limit was exceeded (the number is the size reached).
    NodeLimit(usize),
    /// The time limit was exceeded (seconds).
    TimeLimit(f64),
    /// Something else stopped the run.
    Other(String),
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::Saturated => f.write_str("saturated"),
            StopReason::IterationLimit(n) => write!(f, "iteration limit ({n})"),
            StopReason::NodeLimit(n) => write!(f, "node limit (reached {n} e-nodes)"),
            StopReason::TimeLimit(s) => write!(f, "time limit ({s:.3} s)"),
            StopReason::Other(s) => write!(f, "stopped: {s}"),
        }
    }
}

impl From<egg::StopReason> for StopReason {
    fn from(r: egg::StopReason) -> StopReason {
        match r {
            egg::StopReason::Saturated => StopReason::Saturated,
            egg::StopReason::IterationLimit(n) => StopReason::IterationLimit(n),
            egg::StopReason::NodeLimit(n) => StopReason::NodeLimit(n),
            egg::StopReason::TimeLimit(s) => StopReason::TimeLimit(s),
            egg::StopReason::Other(s) => StopReason::Other(s),
        }
    }
}

/// What a run did: why it stopped, how big the e-graph got, which rules fired, where time went.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Why saturation stopped.
    pub stop_reason: StopReason,
    /// Iterations run.
    pub iterations: usize,
    /// E-nodes before the run.
    pub initial_nodes: usize,
    /// E-nodes after the run.
    pub nodes: usize,
    /// E-classes after the run.
    pub classes: usize,
    /// The e-node limit that applied.
    pub node_limit: usize,
    /// Times each rule changed the e-graph, for every rule in the order given.
    pub firings: Vec<(&'static str, usize)>,
    /// Rule searches over the whole e-graph.
    pub full_searches: usize,
    /// Rule searches restricted to what changed since the rule's previous search.
    pub incremental_searches: usize,
    /// Seconds searching for matches.
    pub search_time: f64,
    /// Seconds applying rules.
    pub apply_time: f64,
    /// Seconds restoring the e-graph's invariants (the run's time less search and apply:
    /// rebuilds and the runner's bookkeeping, see [`super::clock`]).
    pub rebuild_time: f64,
    /// Seconds in saturation overall.
    pub saturation_time: f64,
    /// Seconds extracting.
    pub extraction_time: f64,
    /// Seconds elaborating.
    pub elaboration_time: f64,
    /// DAG cost of the extracted program (target cost model).
    pub cost: f64,
    /// Instructions before.
    pub insts_before: usize,
    /// Instructions after.
    pub insts_after: usize,
    /// E-nodes the target cannot execute that extraction had to keep (no alternative found).
    pub unavailable: Vec<String>,
    /// Set when the optimizer kept its input instead of its result, and why.
    pub fallback: Option<String>,
    /// Saturation rounds (a second one runs when the control-flow passes after the first
    /// changed the function; see [`crate::passes`]).
    pub rounds: usize,
    /// The control-flow passes that ran, in order.
    pub passes: Vec<crate::passes::PassRun>,
}

impl Report {
    /// Adds a later saturation round's figures to this one's (firings, searches and times sum;
    /// sizes, cost and stop reason are the later round's).
    pub fn absorb(&mut self, later: Report) {
        for (name, n) in later.firings {
            match self.firings.iter_mut().find(|(r, _)| *r == name) {
                Some(slot) => slot.1 += n,
                None => self.firings.push((name, n)),
            }
        }
        self.stop_reason = later.stop_reason;
        self.iterations += later.iterations;
        self.nodes = later.nodes;
        self.classes = later.classes;
        self.full_searches += later.full_searches;
        self.incremental_searches += later.incremental_searches;
        self.search_time += later.search_time;
        self.apply_time += later.apply_time;
        self.rebuild_time += later.rebuild_time;
        self.saturation_time += later.saturation_time;
        self.extraction_time += later.extraction_time;
        self.elaboration_time += later.elaboration_time;
        self.cost = later.cost;
        self.insts_after = later.insts_after;
        self.unavailable = later.unavailable;
        self.fallback = self.fallback.take().or(later.fallback);
        self.rounds += later.rounds;
    }

    /// How often the named rule fired.
    pub fn fired(&self, rule: &str) -> usize {
        self.firings
            .iter()
            .find(|(n, _)| *n == rule)
            .map_or(0, |(_, c)| *c)
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "optimizer report")?;
        writeln!(f, "  stop reason: {}", self.stop_reason)?;
        writeln!(f, "  iterations: {}", self.iterations)?;
        writeln!(
            f,
            "  e-graph: {} -> {} e-nodes ({} e-classes), limit {}",
            self.initial_nodes, self.nodes, self.classes, self.node_limit
        )?;
        writeln!(
            f,
            "  instructions: {} -> {}, cost {:.2}",
            self.insts_before, self.insts_after, self.cost
        )?;
        writeln!(
            f,
            "  searches: {} full, {} incremental",
            self.full_searches, self.incremental_searches
        )?;
        writeln!(
            f,
            "  time: saturation {:.3} ms (search {:.3}, apply {:.3}, rebuild {:.3}), extraction {:.3} ms, elaboration {:.3} ms",
            self.saturation_time * 1e3,
            self.search_time * 1e3,
            self.apply_time * 1e3,
            self.rebuild_time * 1e3,
            self.extraction_time * 1e3,
            self.elaboration_time * 1e3
        )?;
        if let Some(why) = &self.fallback {
            writeln!(f, "  kept the input: {why}")?;
        }
        writeln!(f, "  saturation rounds: {}", self.rounds)?;
        let passes: Vec<String> = self
            .passes
            .iter()
            .map(|p| {
                let mark = if p.changed { "*" } else { "" };
                format!("{}{mark} ({})", p.pass.name(), p.insts)
            })
            .collect();
        writeln!(
            f,
            "  control-flow passes (* changed, instructions after): {}",
            passes.join(", ")
        )?;
        if !self.unavailable.is_empty() {
            writeln!(
                f,
                "  unavailable on target: {}",
                self.unavailable.join(", ")
            )?;
        }
        let mut fired: Vec<&(&str, usize)> = self.firings.iter().filter(|(_, n)| *n > 0).collect();
        fired.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        writeln!(
            f,
            "  rules fired ({} of {}):",
            fired.len(),
            self.firings.len()
        )?;
        for (name, n) in fired {
            writeln!(f, "    {n:>6}  {name}")?;
        }
        Ok(())
    }
}

/// Runs `rules` on `egraph` within `limits`; returns the saturated e-graph and the report's
/// saturation part (the caller fills in extraction and elaboration).
pub fn saturate(egraph: EGraph, rules: &[Rule], limits: &Limits) -> (EGraph, Report) {
    saturate_with(egraph, rules, limits, Search::Incremental)
}

/// How rules are searched after their first search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// Only where the e-graph changed (the optimizer's way).
    Incremental,
    /// Over the whole e-graph every time (`egg`'s way; for comparisons).
    Full,
}

/// [`saturate`] with a choice of search.
pub fn saturate_with(
    egraph: EGraph,
    rules: &[Rule],
    limits: &Limits,
    search: Search,
) -> (EGraph, Report) {
    let initial_nodes = egraph.total_size();
    let node_limit = limits.node_limit(initial_nodes);
    let mut scheduler = IncrementalScheduler::new(
        rules,
        limits.match_limit.max(initial_nodes),
        limits.ban_length,
    );
    if search == Search::Full {
        scheduler = scheduler.always_full();
    }
    let searches = scheduler.stats();
    // egg reads a mock clock kept at the real time (see `clock`): no calibration.
    let clock = Rc::new(EggClock::new());
    let scheduler = scheduler.with_clock(Rc::clone(&clock));
    let at_iteration = Rc::clone(&clock);
    let start = std::time::Instant::now();
    let runner: Runner<Node, FactAnalysis> = clock.run(|| {
        Runner::new(FactAnalysis::default())
            .with_egraph(egraph)
            .with_iter_limit(limits.iterations)
            .with_node_limit(node_limit)
            .with_time_limit(limits.time)
            .with_scheduler(scheduler)
            .with_hook(move |_| {
                at_iteration.sync();
                Ok(())
            })
            .run(rules.iter().map(|r| &r.rewrite))
    });
    let saturation_time = start.elapsed().as_secs_f64();
    // The names `egg` interned (no copies), and the rules found by their symbols: a compare
    // of two integers rather than of two strings per rule.
    let mut firings: Vec<(&'static str, usize)> =
        rules.iter().map(|r| (r.rewrite.name.as_str(), 0)).collect();
    for it in &runner.iterations {
        for (name, n) in &it.applied {
            if let Some(i) = rules.iter().position(|r| r.rewrite.name == *name) {
                firings[i].1 += n;
            }
        }
    }
    let sum = |f: fn(&egg::Iteration<()>) -> f64| runner.iterations.iter().map(f).sum::<f64>();
    let report = Report {
        stop_reason: runner
            .stop_reason
            .clone()
            .map(StopReason::from)
            .unwrap_or(StopReason::Other("did not run".into())),
        iterations: runner.iterations.len(),
        initial_nodes,
        // The e-nodes the classes hold (what the DOT dump draws): `total_size` also counts
        // hash-cons entries of e-nodes the analysis pruned from constant classes.
        nodes: runner.egraph.classes().map(|c| c.nodes.len()).sum(),
        classes: runner.egraph.number_of_classes(),
        node_limit,
        firings,
        full_searches: searches.get().full,
        incremental_searches: searches.get().incremental,
        search_time: sum(|i| i.search_time),
        apply_time: sum(|i| i.apply_time),
        // Nothing advances egg's clock during a rebuild: the rest of the run's time.
        rebuild_time: (saturation_time - sum(|i| i.search_time) - sum(|i| i.apply_time)).max(0.0),
        saturation_time,
        extraction_time: 0.0,
        elaboration_time: 0.0,
        cost: 0.0,
        insts_before: 0,
        insts_after: 0,
        unavailable: Vec::new(),
        fallback: None,
        rounds: 1,
        passes: Vec::new(),
    };
    (runner.egraph, report)
}
