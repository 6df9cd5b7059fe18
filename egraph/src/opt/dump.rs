//! Debugging dumps: the e-graph as DOT (and SVG through Graphviz), with the extracted e-nodes
//! marked, and explanations of why two terms are equal.
//!
//! In the DOT output every e-class is a dotted cluster labelled with its id and type; e-nodes are
//! boxes; an edge goes from an e-node to the cluster of each operand class. Extracted e-nodes are
//! filled green with a bold border and carry `class="extracted"` (kept in the SVG). Classes are
//! written breadth-first from the skeleton's roots, so a truncated dump (see [`DOT_NODE_LIMIT`])
//! shows the part of the program closest to its effects; the dump then says so in a comment on its
//! first line and in a note box, and edges into omitted classes point at the note.

use super::analysis::EGraph;
use super::language::Node;
use egg::{Id, Language};
use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::{Command, Stdio};

/// Graphviz lays out a few hundred e-nodes legibly; beyond that a dump is unreadable and slow to
/// render, so dumps stop there by default.
pub const DOT_NODE_LIMIT: usize = 400;

/// The fill colour of extracted e-nodes.
pub const EXTRACTED_FILL: &str = "#b7e4b7";

/// Why an SVG could not be made.
#[derive(Debug, thiserror::Error)]
pub enum DumpError {
    /// Graphviz's `dot` is not installed (or not on `PATH`).
    #[error("Graphviz `dot` could not be run: {0}")]
    GraphvizMissing(std::io::Error),
    /// `dot` ran and failed.
    #[error("Graphviz `dot` failed ({status}): {stderr}")]
    GraphvizFailed {
        /// Its exit status.
        status: String,
        /// What it printed.
        stderr: String,
    },
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The e-graph as DOT: classes reachable from `roots` first, at most `max_nodes` e-nodes;
/// e-nodes in `chosen` are marked as extracted.
pub fn dot(egraph: &EGraph, roots: &[Id], chosen: &HashMap<Id, Node>, max_nodes: usize) -> String {
    // Breadth-first from the roots, then every other class in id order.
    let mut order: Vec<Id> = Vec::new();
    let mut seen: HashSet<Id> = HashSet::new();
    let mut queue: VecDeque<Id> = roots.iter().map(|&r| egraph.find(r)).collect();
    while let Some(c) = queue.pop_front() {
        if !seen.insert(c) {
            continue;
        }
        order.push(c);
        for n in &egraph[c].nodes {
            for &k in n.children() {
                queue.push_back(egraph.find(k));
            }
        }
    }
    let mut rest: Vec<Id> = egraph
        .classes()
        .map(|c| c.id)
        .filter(|c| !seen.contains(c))
        .collect();
    rest.sort();
    order.extend(rest);

    let total_nodes: usize = egraph.classes().map(|c| c.nodes.len()).sum();
    let mut shown: Vec<Id> = Vec::new();
    let mut count = 0;
    for &c in &order {
        let n = egraph[c].nodes.len();
        if count + n > max_nodes && !shown.is_empty() {
            break;
        }
        count += n;
        shown.push(c);
    }
    let truncated = shown.len() < order.len();
    let included: HashSet<Id> = shown.iter().copied().collect();

    let mut out = String::new();
    if truncated {
        let _ = writeln!(
            out,
            "// truncated: {count} of {total_nodes} e-nodes, {} of {} e-classes shown (limit {max_nodes})",
            shown.len(),
            order.len()
        );
    }
    out.push_str("digraph egraph {\n  compound=true\n  clusterrank=local\n");
    out.push_str("  node [shape=box, fontname=\"monospace\", fontsize=10]\n");
    if truncated {
        let _ = writeln!(
            out,
            "  truncated [shape=note, style=filled, fillcolor=\"#ffe0a0\", label=\"truncated: {count} of {total_nodes} e-nodes shown\\n(limit {max_nodes}; edges into omitted e-classes end here)\"]"
        );
    }
    for &c in &shown {
        let class = &egraph[c];
        let ty = class
            .data
            .ty
            .map_or("sample".to_string(), |t| t.to_string());
        let _ = writeln!(
            out,
            "  subgraph cluster_{c} {{\n    style=dotted\n    label=\"e{c}: {ty}\""
        );
        let pick = chosen.get(&c);
        for (i, n) in class.nodes.iter().enumerate() {
            let label = escape(&n.to_string());
            if pick == Some(n) {
                let _ = writeln!(
                    out,
                    "    \"{c}.{i}\" [label=\"{label}\", style=\"filled,bold\", fillcolor=\"{EXTRACTED_FILL}\", class=\"extracted\"]"
                );
            } else {
                let _ = writeln!(out, "    \"{c}.{i}\" [label=\"{label}\"]");
            }
        }
        out.push_str("  }\n");
    }
    for &c in &shown {
        for (i, n) in egraph[c].nodes.iter().enumerate() {
            for (j, &k) in n.children().iter().enumerate() {
                let k = egraph.find(k);
                if included.contains(&k) {
                    let _ = writeln!(
                        out,
                        "  \"{c}.{i}\" -> \"{k}.0\" [lhead=cluster_{k}, label=\"{j}\", fontsize=8]"
                    );
                } else {
                    let _ = writeln!(out, "  \"{c}.{i}\" -> truncated [style=dashed]");
                }
            }
        }
    }
    out.push_str("}\n");
    out
}

/// Renders DOT as SVG with Graphviz's `dot`.
pub fn svg(dot_text: &str) -> Result<String, DumpError> {
    let mut child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(DumpError::GraphvizMissing)?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(dot_text.as_bytes())
            .map_err(DumpError::GraphvizMissing)?;
    }
    let out = child
        .wait_with_output()
        .map_err(DumpError::GraphvizMissing)?;
    if !out.status.success() {
        return Err(DumpError::GraphvizFailed {
            status: out.status.to_string(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
