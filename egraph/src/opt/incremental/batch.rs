//! All of an iteration's rules searched in one pass over the classes.
//!
//! Searching rule by rule visits the classes holding a rule's root operation once per rule: a
//! dozen rules rooted at `fmul` read every `fmul` class, its e-nodes and its operands' classes a
//! dozen times. In a large function those reads miss the caches every time (`egg` keeps each
//! class's e-nodes in an allocation of its own and finds a class by hashing its id into a
//! table that outgrows them), and search time grew faster than the function. So the scheduler
//! visits each class once and runs there every rule rooted at one of its operations.
//!
//! Each rule's matches are the ones its own search finds, in the same order: a search only
//! reads the e-graph, a full search visits the classes of its root operation in `egg`'s order
//! (the order of `egg`'s class list, which `egg` rebuilds that index from, and which the pass
//! checks as it goes: were it ever different, the rules fall back to searching one by one),
//! an incremental one the classes near a change in id order, and both stop at the same limit.

use super::{IncrementalScheduler, Plan};
use crate::opt::analysis::{EGraph, FactAnalysis};
use crate::opt::language::{Kind, Node};
use egg::{Id, Rewrite, SearchMatches};
use rustc_hash::FxHashMap as HashMap;
use std::borrow::Cow;

/// A rule in a pass: its index among the rewrites, its limit, and what is left of it.
struct Entry {
    rule: usize,
    limit: usize,
    left: usize,
    /// How far from a change its matches may be (incremental searches).
    depth: usize,
    /// Classes within reach its search visited (for the statistics).
    visited: usize,
}

/// The rules of a full pass rooted at one operation, and the classes `egg` lists for it.
struct Group {
    classes: Vec<Id>,
    next: usize,
    rules: Vec<Entry>,
}

/// Matches per rewrite (`None`: banned, not searched).
type Found<'a> = Vec<Option<Vec<SearchMatches<'a, Node>>>>;

impl IncrementalScheduler {
    /// Searches `rewrites` as `plans` say: pattern rules' full searches in one pass over the
    /// classes, incremental searches of rules with a root operation in one pass over the
    /// classes near a change, the others one by one.
    pub(super) fn search_batched<'a>(
        &mut self,
        egraph: &EGraph,
        rewrites: &[&'a Rewrite<Node, FactAnalysis>],
        plans: &[(Plan, usize)],
    ) -> Found<'a> {
        let mut out: Found<'a> = rewrites.iter().map(|_| None).collect();
        let mut full: HashMap<Kind, Vec<Entry>> = HashMap::default();
        let mut near: HashMap<Kind, Vec<Entry>> = HashMap::default();
        for (i, (rw, &(plan, _))) in rewrites.iter().zip(plans).enumerate() {
            let entry = |limit, depth| Entry {
                rule: i,
                limit,
                left: limit,
                depth,
                visited: 0,
            };
            match (plan, self.searchers.get(&rw.name)) {
                (Plan::Full { limit }, Some(searcher)) => {
                    full.entry(searcher.root())
                        .or_default()
                        .push(entry(limit, 0));
                    out[i] = Some(Vec::new());
                }
                (
                    Plan::Near {
                        root: Some(root),
                        depth,
                        limit,
                        ..
                    },
                    _,
                ) => {
                    near.entry(root).or_default().push(entry(limit, depth));
                    out[i] = Some(Vec::new());
                }
                _ => out[i] = self.search_one(egraph, rw, plan),
            }
        }
        if !full.is_empty() {
            self.full_pass(egraph, rewrites, full, &mut out);
        }
        if !near.is_empty() {
            self.near_pass(egraph, rewrites, near, &mut out);
        }
        out
    }

    /// The full searches of pattern rules, grouped by root operation, in one pass over `egg`'s
    /// classes.
    fn full_pass<'a>(
        &mut self,
        egraph: &EGraph,
        rewrites: &[&'a Rewrite<Node, FactAnalysis>],
        by_root: HashMap<Kind, Vec<Entry>>,
        out: &mut Found<'a>,
    ) {
        let searches = by_root.values().map(Vec::len).sum::<usize>();
        self.count(|s| s.full += searches);
        let mut groups: HashMap<Kind, Group> = by_root
            .into_iter()
            .map(|(kind, rules)| {
                let classes = egraph
                    .classes_for_op(&kind)
                    .map_or_else(Vec::new, |ids| ids.collect());
                let group = Group {
                    classes,
                    next: 0,
                    rules,
                };
                (kind, group)
            })
            .collect();
        let mut in_order = true;
        'classes: for class in egraph.classes() {
            let mut last = None;
            // Nodes are sorted, so equal operations are adjacent.
            for node in &class.nodes {
                if last == Some(node.kind) {
                    continue;
                }
                last = Some(node.kind);
                let Some(group) = groups.get_mut(&node.kind) else {
                    continue;
                };
                if group.classes.get(group.next) != Some(&class.id) {
                    in_order = false;
                    break 'classes;
                }
                group.next += 1;
                for e in &mut group.rules {
                    if e.left == 0 {
                        continue;
                    }
                    let rw = rewrites[e.rule];
                    let Some(searcher) = self.searchers.get(&rw.name) else {
                        continue;
                    };
                    // As the rule's own full search: the limit counts the pattern's matches,
                    // the literal checks and the guard filter them afterwards.
                    let mut substs = searcher.unfiltered(egraph, class.id, e.left);
                    e.left -= substs.len().min(e.left);
                    substs.retain(|s| searcher.accepts(egraph, s));
                    if let (false, Some(found)) = (substs.is_empty(), out[e.rule].as_mut()) {
                        found.push(SearchMatches {
                            eclass: class.id,
                            substs,
                            ast: rw.searcher.get_pattern_ast().map(Cow::Borrowed),
                        });
                    }
                }
            }
        }
        in_order &= groups.values().all(|g| g.next == g.classes.len());
        if !in_order {
            for e in groups.values().flat_map(|g| &g.rules) {
                out[e.rule] = Some(rewrites[e.rule].search_with_limit(egraph, e.limit));
            }
        }
    }

    /// The incremental searches of rules with a root operation, grouped by it, in one pass
    /// over the classes near a change (in id order, as each rule's own search).
    fn near_pass<'a>(
        &mut self,
        egraph: &EGraph,
        rewrites: &[&'a Rewrite<Node, FactAnalysis>],
        mut by_root: HashMap<Kind, Vec<Entry>>,
        out: &mut Found<'a>,
    ) {
        let mut start = 0;
        for (&c, &end) in self.near.iter().zip(&self.near_kind_ends) {
            let kinds = &self.near_kinds[start..end as usize];
            start = end as usize;
            let d = usize::from(self.dist[usize::from(c)]);
            for kind in kinds {
                let Some(rules) = by_root.get_mut(kind) else {
                    continue;
                };
                for e in rules.iter_mut().filter(|e| d <= e.depth) {
                    e.visited += 1;
                    if e.left == 0 {
                        continue;
                    }
                    let rw = rewrites[e.rule];
                    if let Some(m) = rw.searcher.search_eclass_with_limit(egraph, c, e.left) {
                        e.left = e.left.saturating_sub(m.substs.len());
                        if let Some(found) = out[e.rule].as_mut() {
                            found.push(m);
                        }
                    }
                }
            }
        }
        let searches = by_root.values().map(Vec::len).sum::<usize>();
        let visited = by_root.values().flatten().map(|e| e.visited).sum::<usize>();
        self.count(|s| {
            s.incremental += searches;
            s.classes_visited += visited;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opt::{synth, to_egraph, GenericTarget, Target};
    use egg::Subst;

    /// A search's matches in comparable form.
    fn found(ms: &Option<Vec<SearchMatches<'_, Node>>>) -> Option<Vec<(Id, Vec<Subst>)>> {
        ms.as_ref()
            .map(|ms| ms.iter().map(|m| (m.eclass, m.substs.clone())).collect())
    }

    /// The batched search against each rule searched alone, over the iterations of a run: its
    /// first (every rule searches everything) and later ones (only near what changed).
    #[test]
    fn a_batched_search_finds_what_each_rule_finds_alone() {
        let target = GenericTarget::new();
        let rules = target.rules();
        let rewrites: Vec<&Rewrite<Node, FactAnalysis>> =
            rules.iter().map(|r| &r.rewrite).collect();
        for seed in 0..3 {
            let f = synth::shader_like(500, seed);
            let mut eg = EGraph::default();
            to_egraph::lower(&f, &mut eg).expect("lowers");
            eg.rebuild();
            let mut batched = IncrementalScheduler::new(rules, 1_000, 3);
            let mut alone = IncrementalScheduler::new(rules, 1_000, 3);
            let mut compared = 0;
            for iteration in 0..4 {
                batched.snapshot(&eg);
                alone.snapshot(&eg);
                let plans: Vec<(Plan, usize)> = rewrites
                    .iter()
                    .map(|rw| batched.plan(iteration, rw))
                    .collect();
                let together = batched.search_batched(&eg, &rewrites, &plans);
                let mut apply = Vec::new();
                for ((rw, (plan, threshold)), ms) in rewrites.iter().zip(plans).zip(together) {
                    let one = alone.search_one(&eg, rw, plan);
                    assert_eq!(found(&ms), found(&one), "seed {seed}, {}", rw.name);
                    compared += one.as_ref().map_or(0, Vec::len);
                    if let Some(one) = one {
                        apply.push((rw, alone.settle(iteration, rw, threshold, one)));
                    }
                    if let Some(ms) = ms {
                        batched.settle(iteration, rw, threshold, ms);
                    }
                }
                for (rw, ms) in apply {
                    rw.apply(&mut eg, &ms);
                }
                eg.rebuild();
            }
            assert!(compared > 0, "seed {seed}: nothing matched");
            let stats = |s: &IncrementalScheduler| s.stats.get();
            assert_eq!(stats(&batched), stats(&alone), "seed {seed}");
            assert!(stats(&batched).incremental > 0, "seed {seed}");
        }
    }
}
