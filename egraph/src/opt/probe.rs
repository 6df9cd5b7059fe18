//! Saturating and extracting a single term: one-line rule tests and quick experiments.
//!
//! ```
//! use agxc_egraph::opt::{probe, GenericTarget};
//!
//! let t = GenericTarget::new();
//! assert_eq!(probe::best(&t, "(fadd (fmul ?a ?b) ?c)").unwrap(), "(fma ?a ?b ?c)");
//! assert_eq!(probe::best(&t, "(fadd.nocontract (fmul ?a ?b) ?c)").unwrap(),
//!            "(fadd.nocontract (fmul ?a ?b) ?c)");
//! ```
//!
//! Variables are leaves of type f32 unless typed (`?n:i32`); the result prints them back by name.

use super::analysis::{EGraph, FactAnalysis};
use super::cost::extraction_cost;
use super::extract;
use super::language::{Kind, Node};
use super::runner::{saturate, Limits, Report};
use super::target::Target;
use super::term::{Term, TermError};
use crate::ir::{Type, Value};
use egg::{Id, Language};
use std::collections::HashMap;

/// Why a probe failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    /// The term did not parse.
    #[error(transparent)]
    Term(#[from] TermError),
    /// A literal without a type its position could give it (write `1.0:f32`).
    #[error("untyped literal in a probe term")]
    Literal,
}

/// The term the DAG extractor picks after saturating `text` with the target's rules.
pub fn best(target: &dyn Target, text: &str) -> Result<String, ProbeError> {
    run(target, text).map(|(s, _)| s)
}

/// Like [`best`], also returning the saturation report.
pub fn run(target: &dyn Target, text: &str) -> Result<(String, Report), ProbeError> {
    let term = Term::parse(text, &target.registry())?;
    let mut eg = EGraph::new(FactAnalysis::default());
    let mut names: Vec<String> = Vec::new();
    let root = add(&mut eg, &term, &mut names)?;
    eg.rebuild();
    let (eg, report) = saturate(eg, target.rules(), &Limits::default());
    let root = eg.find(root);
    let ex = extract::dag(&eg, &[root], |n, f| extraction_cost(target.cost(n, f), n));
    Ok((print(&eg, &ex.choice, root, &names), report))
}

fn add(eg: &mut EGraph, t: &Term, names: &mut Vec<String>) -> Result<Id, ProbeError> {
    Ok(match t {
        Term::Var(n, ty) => {
            let idx = match names.iter().position(|m| m == n) {
                Some(i) => i,
                None => {
                    names.push(n.clone());
                    names.len() - 1
                }
            };
            eg.add(Node::leaf(Kind::Leaf {
                value: Value::from_u32(idx as u32),
                ty: ty.unwrap_or(Type::F32),
            }))
        }
        Term::Lit(_) => return Err(ProbeError::Literal),
        Term::Node(k, kids) => {
            let ids: Vec<Id> = kids
                .iter()
                .map(|kid| add(eg, kid, names))
                .collect::<Result<_, _>>()?;
            eg.add(Node::new(*k, &ids))
        }
    })
}

fn print(eg: &EGraph, choice: &HashMap<Id, Node>, c: Id, names: &[String]) -> String {
    let Some(node) = choice.get(&eg.find(c)) else {
        return "?".into();
    };
    let head = match node.kind {
        Kind::Leaf { value, .. } => match names.get(value.as_u32() as usize) {
            Some(n) => format!("?{n}"),
            None => node.kind.to_string(),
        },
        k => k.to_string(),
    };
    if node.children().is_empty() {
        return head;
    }
    let kids: Vec<String> = node
        .children()
        .iter()
        .map(|&k| print(eg, choice, k, names))
        .collect();
    format!("({head} {})", kids.join(" "))
}
