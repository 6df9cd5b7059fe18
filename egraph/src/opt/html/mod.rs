//! The interactive e-graph viewer: one self-contained HTML page (no network access when
//! viewed) with the saturated e-graph, the extracted choice and the optimizer's report.
//!
//! [`View::build`] gathers what the page shows from the e-graph after saturation: every
//! e-class (no truncation) with its e-nodes, each e-node's cost under the target's model, the
//! extracted e-node, and the rules whose rewrites merged e-nodes into the class. The rules come
//! from egg's explanation record ([`egg::EGraph::get_union_equalities`]: every union made by a
//! rewrite, with the rule's name), so asking for this dump turns explanation tracking on, as
//! [`super::DumpOptions::explain`] does. [`layout`] places the classes in layers below the
//! skeleton's roots; [`page`] writes the HTML with the data as JSON and the viewer's
//! hand-written script and style sheet (`viewer.js`, `viewer.css`) inlined.
//!
//! The output is deterministic: classes in id order, rules sorted by name, coordinates in
//! whole pixels.

mod json;
mod layout;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use egg::{Id, Language};

use super::analysis::EGraph;
use super::cost::{extraction_cost, OpCost};
use super::language::Node;
use super::runner::Report;
use super::target::Target;
use json::Json;

/// One e-node as the page shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeView {
    /// The e-node's label (its operation, constant or leaf).
    pub label: String,
    /// The e-classes of its operands (canonical ids).
    pub children: Vec<u32>,
    /// The target's cost of the operation.
    pub cost: OpCost,
    /// The cost extraction minimises (issue plus weighted latency; 0 for leaves).
    pub extraction: f64,
    /// Rules whose unions involved this e-node, sorted by name.
    pub rules: Vec<String>,
}

/// One e-class.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassView {
    /// Canonical id.
    pub id: u32,
    /// Type (`sample` for a texture sample's result bundle).
    pub ty: String,
    /// The constant value, if the analysis knows it.
    pub konst: Option<String>,
    /// A root of the control-flow skeleton (a value an effect or terminator uses).
    pub root: bool,
    /// Its e-nodes.
    pub nodes: Vec<NodeView>,
    /// Index in `nodes` of the extracted e-node, if the class was extracted.
    pub chosen: Option<usize>,
    /// Rules that merged e-nodes into this class, with how many unions each made, by name.
    pub rules: Vec<(String, usize)>,
}

/// Everything the page shows but the report.
#[derive(Debug, Clone, PartialEq)]
pub struct View {
    /// The classes in id order.
    pub classes: Vec<ClassView>,
    /// Whether the rule record was available (explanations enabled).
    pub explained: bool,
}

impl View {
    /// Gathers the view of `egraph` after saturation and extraction.
    pub fn build(
        egraph: &EGraph,
        roots: &[Id],
        choice: &HashMap<Id, Node>,
        target: &dyn Target,
    ) -> View {
        let explained = egraph.are_explanations_enabled();
        let mut class_rules: HashMap<Id, BTreeMap<String, usize>> = HashMap::new();
        let mut node_rules: HashMap<Node, BTreeSet<String>> = HashMap::new();
        if explained {
            for (a, b, rule) in egraph.get_union_equalities() {
                let class = egraph.find(a);
                *class_rules
                    .entry(class)
                    .or_default()
                    .entry(rule.to_string())
                    .or_default() += 1;
                for id in [a, b] {
                    let node = egraph
                        .id_to_node(id)
                        .clone()
                        .map_children(|c| egraph.find(c));
                    node_rules.entry(node).or_default().insert(rule.to_string());
                }
            }
        }
        let roots: BTreeSet<Id> = roots.iter().map(|&r| egraph.find(r)).collect();
        let mut ids: Vec<Id> = egraph.classes().map(|c| c.id).collect();
        ids.sort();
        let classes = ids
            .into_iter()
            .map(|id| {
                let class = &egraph[id];
                let facts = &class.data;
                let pick = choice.get(&id);
                let nodes: Vec<NodeView> = class
                    .nodes
                    .iter()
                    .map(|n| {
                        let cost = target.cost(n, facts);
                        NodeView {
                            label: n.to_string(),
                            children: n
                                .children()
                                .iter()
                                .map(|&c| usize::from(egraph.find(c)) as u32)
                                .collect(),
                            cost,
                            extraction: extraction_cost(cost, n),
                            rules: node_rules
                                .get(n)
                                .map(|r| r.iter().cloned().collect())
                                .unwrap_or_default(),
                        }
                    })
                    .collect();
                ClassView {
                    id: usize::from(id) as u32,
                    ty: facts.ty.map_or("sample".into(), |t| t.to_string()),
                    konst: facts.konst.map(|k| k.to_string()),
                    root: roots.contains(&id),
                    chosen: pick.and_then(|p| class.nodes.iter().position(|n| n == p)),
                    nodes,
                    rules: class_rules
                        .remove(&id)
                        .map(|m| m.into_iter().collect())
                        .unwrap_or_default(),
                }
            })
            .collect();
        View { classes, explained }
    }

    /// Number of e-nodes.
    pub fn node_count(&self) -> usize {
        self.classes.iter().map(|c| c.nodes.len()).sum()
    }
}

const SCRIPT: &str = include_str!("viewer.js");
const STYLE: &str = include_str!("viewer.css");

/// The page: the view laid out, with `report` (the optimizer's report) shown beside it.
pub fn page(view: &View, report: &Report) -> String {
    let placed = layout::place(view);
    let mut data = Json::new();
    data.object(|o| {
        o.key("explained").bool(view.explained);
        o.key("width").int(placed.width);
        o.key("height").int(placed.height);
        o.key("row").int(layout::ROW);
        o.key("head").int(layout::HEAD);
        o.key("classes").array(|a| {
            for (c, p) in view.classes.iter().zip(&placed.boxes) {
                a.object(|o| class_json(o, c, p));
            }
        });
    });
    let title = format!(
        "agxc e-graph: {} e-classes, {} e-nodes",
        view.classes.len(),
        view.node_count()
    );
    let mut out = String::with_capacity(data.len() + SCRIPT.len() + 4096);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str(&format!("<title>{}</title>\n", escape_html(&title)));
    out.push_str("<style>\n");
    out.push_str(STYLE);
    out.push_str("</style>\n</head>\n<body data-errors=\"0\">\n");
    out.push_str(&format!(
        "<header><h1>{}</h1>\n<label>Search operations <input id=\"search\" type=\"search\" \
         placeholder=\"fadd, fma, const\" autocomplete=\"off\"></label> <span id=\"search-count\"></span>\n\
         <button id=\"fit\" type=\"button\">Fit</button> <span class=\"hint\">drag to pan, wheel to zoom, \
         click an e-class for its e-nodes</span></header>\n",
        escape_html(&title)
    ));
    out.push_str("<pre id=\"errors\" hidden></pre>\n<main>\n");
    out.push_str(
        "<svg id=\"graph\" xmlns=\"http://www.w3.org/2000/svg\"><g id=\"world\"></g></svg>\n",
    );
    out.push_str("<aside>\n<section id=\"detail\" hidden></section>\n");
    out.push_str("<details id=\"report\" open><summary>Optimizer report</summary><pre>");
    out.push_str(&escape_html(&report_text(report)));
    out.push_str("</pre></details>\n</aside>\n</main>\n<pre id=\"selftest\" hidden></pre>\n");
    out.push_str("<script id=\"egraph-data\" type=\"application/json\">");
    out.push_str(&data.finish());
    out.push_str("</script>\n<script>\n");
    out.push_str(SCRIPT);
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

fn class_json(o: &mut json::Object<'_>, c: &ClassView, p: &layout::Box) {
    o.key("id").int(i64::from(c.id));
    o.key("ty").str(&c.ty);
    if let Some(k) = &c.konst {
        o.key("konst").str(k);
    }
    o.key("root").bool(c.root);
    match c.chosen {
        Some(i) => o.key("chosen").int(i as i64),
        None => o.key("chosen").null(),
    }
    o.key("x").int(p.x);
    o.key("y").int(p.y);
    o.key("w").int(p.w);
    o.key("h").int(p.h);
    o.key("rules").array(|a| {
        for (name, n) in &c.rules {
            a.array(|pair| {
                pair.str(name);
                pair.int(*n as i64);
            });
        }
    });
    o.key("nodes").array(|a| {
        for n in &c.nodes {
            a.object(|o| {
                o.key("l").str(&n.label);
                o.key("k").array(|k| {
                    for &c in &n.children {
                        k.int(i64::from(c));
                    }
                });
                o.key("lat").num(n.cost.latency);
                o.key("iss").num(n.cost.issue);
                o.key("c").num(n.extraction);
                o.key("r").array(|r| {
                    for rule in &n.rules {
                        r.str(rule);
                    }
                });
            });
        }
    });
}

/// The report without its timings, which differ from run to run (the page is deterministic).
fn report_text(report: &Report) -> String {
    let mut text: String = report
        .to_string()
        .lines()
        .filter(|l| !l.trim_start().starts_with("time:"))
        .map(|l| format!("{l}\n"))
        .collect();
    text.push_str("(timings omitted: see `agxc compile --emit report`)\n");
    text
}

fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests;
