//! Shrinking recipes.
//!
//! Every candidate is strictly smaller than its origin in the order (statement count, sum of
//! picks and counts, constants' distance from zero), so quickcheck's shrink loop terminates.

use super::{Addr, Case, Cond, Pick, PrivateAt, Stmt, Trips};
use crate::ir::constant::Const;

/// The number of statements, nested ones included.
pub(super) fn size(stmts: &[Stmt]) -> usize {
    stmts
        .iter()
        .map(|s| {
            1 + match s {
                Stmt::If {
                    then_body,
                    else_body,
                    ..
                } => size(then_body) + size(else_body),
                Stmt::Loop { body, .. } => size(body),
                Stmt::Switch { cases, .. } => cases.iter().map(|c| size(&c.body)).sum(),
                _ => 0,
            }
        })
        .sum()
}

/// Smaller statement lists, most aggressive first.
pub(super) fn stmts(list: &[Stmt]) -> Vec<Vec<Stmt>> {
    let mut out = Vec::new();
    // Drop the second half, then the first half, then single statements.
    if list.len() >= 4 {
        out.push(list[..list.len() / 2].to_vec());
        out.push(list[list.len() / 2..].to_vec());
    }
    for i in 0..list.len() {
        let mut v = list.to_vec();
        v.remove(i);
        out.push(v);
    }
    // Replace a compound statement by one of its bodies.
    for (i, s) in list.iter().enumerate() {
        let bodies: Vec<&Vec<Stmt>> = match s {
            Stmt::If {
                then_body,
                else_body,
                ..
            } => vec![then_body, else_body],
            Stmt::Loop { body, .. } => vec![body],
            Stmt::Switch { cases, .. } => cases.iter().map(|c| &c.body).collect(),
            _ => Vec::new(),
        };
        for body in bodies {
            let mut v = list[..i].to_vec();
            v.extend(body.iter().cloned());
            v.extend(list[i + 1..].iter().cloned());
            out.push(v);
        }
    }
    // Shrink one statement in place.
    for (i, s) in list.iter().enumerate() {
        for smaller in stmt(s) {
            let mut v = list.to_vec();
            v[i] = smaller;
            out.push(v);
        }
    }
    out
}

fn pick(p: Pick) -> Option<Pick> {
    (p.0 != 0).then_some(Pick(p.0 / 2))
}

/// Each pick that can shrink, with its index and smaller value.
fn picks(list: &[Pick]) -> Vec<(usize, Pick)> {
    list.iter()
        .enumerate()
        .filter_map(|(i, &p)| pick(p).map(|q| (i, q)))
        .collect()
}

fn cond(c: Cond) -> Option<Cond> {
    match c {
        Cond::Value(p) => pick(p).map(Cond::Value),
        Cond::GidBit(n) => (n != 0).then_some(Cond::GidBit(0)),
    }
}

/// A simpler private place: a smaller pick, then the constant word 0.
fn private_at(at: PrivateAt) -> Option<PrivateAt> {
    match at {
        PrivateAt::Selected(p) => Some(pick(p).map_or(PrivateAt::Fixed(0), PrivateAt::Selected)),
        PrivateAt::Fixed(n) => (n != 0).then_some(PrivateAt::Fixed(0)),
    }
}

fn stmt(s: &Stmt) -> Vec<Stmt> {
    let mut out = Vec::new();
    match s {
        Stmt::Op { op, ty, to, args } => {
            for (i, &a) in args.iter().enumerate() {
                if let Some(p) = pick(a) {
                    let mut args = *args;
                    args[i] = p;
                    out.push(Stmt::Op {
                        op: *op,
                        ty: *ty,
                        to: *to,
                        args,
                    });
                }
            }
        }
        Stmt::Const(c) => {
            let zero = Const::zero(c.ty());
            if *c != zero {
                out.push(Stmt::Const(zero));
            }
        }
        Stmt::Load { ty, count, addr } => {
            if *count > 1 {
                out.push(Stmt::Load {
                    ty: *ty,
                    count: 1,
                    addr: *addr,
                });
            }
            let smaller = match *addr {
                Addr::Window(k) => (k != 0).then_some(Addr::Window(0)),
                Addr::Gather(p) => Some(pick(p).map_or(Addr::Window(0), Addr::Gather)),
                Addr::Table(p) => Some(pick(p).map_or(Addr::Window(0), Addr::Table)),
                Addr::Uniform(_) | Addr::Strided(..) => Some(Addr::Window(0)),
                // Stays private: a counterexample about private memory keeps its access.
                Addr::Private(at) => private_at(at).map(Addr::Private),
            };
            if let Some(addr) = smaller {
                out.push(Stmt::Load {
                    ty: *ty,
                    count: *count,
                    addr,
                });
            }
        }
        Stmt::Store {
            slot,
            ty,
            count,
            value,
        } => {
            if *count > 1 {
                out.push(Stmt::Store {
                    slot: *slot,
                    ty: *ty,
                    count: 1,
                    value: *value,
                });
            }
            if let Some(value) = pick(*value) {
                out.push(Stmt::Store {
                    slot: *slot,
                    ty: *ty,
                    count: *count,
                    value,
                });
            }
            if *slot != 0 {
                out.push(Stmt::Store {
                    slot: 0,
                    ty: *ty,
                    count: *count,
                    value: *value,
                });
            }
        }
        &Stmt::PrivateStore {
            at,
            ty,
            count,
            value,
        } => {
            let make = |at, count, value| Stmt::PrivateStore {
                at,
                ty,
                count,
                value,
            };
            if count > 1 {
                out.push(make(at, 1, value));
            }
            if let Some(value) = pick(value) {
                out.push(make(at, count, value));
            }
            if let Some(at) = private_at(at) {
                out.push(make(at, count, value));
            }
        }
        Stmt::If {
            cond: c,
            then_body,
            else_body,
            results,
        } => {
            let make = |cond, then_body, else_body, results| Stmt::If {
                cond,
                then_body,
                else_body,
                results,
            };
            for i in 0..results.len() {
                let mut r = results.clone();
                r.remove(i);
                out.push(make(*c, then_body.clone(), else_body.clone(), r));
            }
            for t in stmts(then_body) {
                out.push(make(*c, t, else_body.clone(), results.clone()));
            }
            for e in stmts(else_body) {
                out.push(make(*c, then_body.clone(), e, results.clone()));
            }
            if let Some(c) = cond(*c) {
                out.push(make(
                    c,
                    then_body.clone(),
                    else_body.clone(),
                    results.clone(),
                ));
            }
        }
        Stmt::Loop {
            trips,
            carried,
            body,
        } => {
            let make = |trips, carried, body| Stmt::Loop {
                trips,
                carried,
                body,
            };
            let fewer = match *trips {
                Trips::Const(n) => (n != 0).then_some(Trips::Const(n / 2)),
                Trips::Data(_, max) => Some(Trips::Const(max / 2)),
            };
            if let Some(t) = fewer {
                out.push(make(t, carried.clone(), body.clone()));
            }
            for i in 0..carried.len() {
                let mut c = carried.clone();
                c.remove(i);
                out.push(make(*trips, c, body.clone()));
            }
            for b in stmts(body) {
                out.push(make(*trips, carried.clone(), b));
            }
        }
        Stmt::Switch {
            selector,
            cases,
            default,
            results,
        } => {
            let make = |selector, cases, default, results| Stmt::Switch {
                selector,
                cases,
                default,
                results,
            };
            for i in 0..cases.len() {
                if cases.len() > 1 {
                    let mut c = cases.clone();
                    c.remove(i);
                    out.push(make(*selector, c, *default, results.clone()));
                }
                for b in stmts(&cases[i].body) {
                    let mut c = cases.clone();
                    c[i] = Case {
                        body: b,
                        ..cases[i].clone()
                    };
                    out.push(make(*selector, c, *default, results.clone()));
                }
                if cases[i].falls {
                    let mut c = cases.clone();
                    c[i].falls = false;
                    out.push(make(*selector, c, *default, results.clone()));
                }
            }
            for i in 0..results.len() {
                let mut r = results.clone();
                r.remove(i);
                out.push(make(*selector, cases.clone(), *default, r));
            }
            if *default {
                out.push(make(*selector, cases.clone(), false, results.clone()));
            }
            if let Some(p) = pick(*selector) {
                out.push(make(p, cases.clone(), *default, results.clone()));
            }
        }
        Stmt::Sample { coords, lod } => {
            for (i, smaller) in picks(&[coords[0], coords[1], *lod]) {
                let mut all = [coords[0], coords[1], *lod];
                all[i] = smaller;
                out.push(Stmt::Sample {
                    coords: [all[0], all[1]],
                    lod: all[2],
                });
            }
        }
        Stmt::Fetch { coords, level } => {
            for (i, smaller) in picks(&[coords[0], coords[1], *level]) {
                let mut all = [coords[0], coords[1], *level];
                all[i] = smaller;
                out.push(Stmt::Fetch {
                    coords: [all[0], all[1]],
                    level: all[2],
                });
            }
        }
        Stmt::Exit {
            kind,
            cond: c,
            values,
        } => {
            if let Some(c) = cond(*c) {
                out.push(Stmt::Exit {
                    kind: *kind,
                    cond: c,
                    values: *values,
                });
            }
            if let Some(values) = pick(*values) {
                out.push(Stmt::Exit {
                    kind: *kind,
                    cond: *c,
                    values,
                });
            }
        }
    }
    out
}
