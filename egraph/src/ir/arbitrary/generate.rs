//! Drawing random recipes.

use super::{
    Addr, Case, Cond, Config, ExitKind, Family, Pick, PrivateAt, Recipe, Stmt, Trips, PRIVATE_BYTES,
};
use crate::ir::constant::Const;
use crate::ir::ops::PureOp;
use crate::ir::signature::Signature;
use crate::ir::types::Type;
use half::f16;
use quickcheck::{Arbitrary, Gen};

/// Statements in one block are drawn up to this many at a time (the total stays within
/// `Config::max_stmts`), so nested bodies stay short and programs stay readable.
const MAX_BLOCK_STMTS: usize = 8;

/// Float values worth testing: signed zeros, small integers, fractions, the f16 range limits,
/// denormals, infinities, NaN.
const SPECIAL_FLOATS: [f64; 16] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    2.0,
    3.0,
    -2.5,
    100.0,
    1e-3,
    65504.0,
    1.0e-40,
    6.0e-8,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
];

/// Integers worth testing (wrapped to the type's width), besides each type's minimum and
/// maximum.
const SPECIAL_INTS: [i64; 11] = [0, 1, -1, 2, 3, 7, 15, 16, 31, 32, 255];

pub(super) fn recipe(g: &mut Gen, config: &Config) -> Recipe {
    let mut state = State {
        g,
        config,
        types: config.types(),
        ops: table_ops(config),
        budget: config.max_stmts,
    };
    // The top level takes whatever the nested bodies leave of the budget.
    let mut stmts = Vec::new();
    let n = 1 + state.below(config.max_stmts);
    while stmts.len() < n && state.budget > 0 {
        state.budget -= 1;
        stmts.push(state.stmt(0, false));
    }
    Recipe {
        stmts,
        local_size: config.local_size,
    }
}

/// The allowed operations with every type parameter (and conversion target) their signature
/// accepts among the allowed types.
fn table_ops(config: &Config) -> Vec<(PureOp, Type, Type)> {
    let types = config.types();
    let mut ops = Vec::new();
    for &op in PureOp::ALL {
        if !config.families.contains(&Family::of(op)) || config.exclude.contains(&op) {
            continue;
        }
        for &ty in &types {
            for &to in &types {
                let is_convert = matches!(op.signature(), Signature::Convert { .. });
                if !is_convert && to != ty {
                    continue;
                }
                if super::lower::shape(op, ty, to).is_some() {
                    ops.push((op, ty, to));
                }
            }
        }
    }
    ops
}

struct State<'g, 'c> {
    g: &'g mut Gen,
    config: &'c Config,
    types: Vec<Type>,
    ops: Vec<(PureOp, Type, Type)>,
    /// Statements left to draw.
    budget: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Op,
    Const,
    Load,
    Store,
    If,
    Loop,
    Switch,
    Exit,
    Sample,
    Fetch,
}

impl State<'_, '_> {
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            u32::arbitrary(self.g) as usize % n
        }
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick(&mut self) -> Pick {
        // Mostly recent values, sometimes any.
        Pick(if self.chance(70) {
            self.below(4) as u16
        } else {
            u16::arbitrary(self.g)
        })
    }

    fn ty(&mut self) -> Type {
        let i = self.below(self.types.len());
        self.types[i]
    }

    fn numeric_ty(&mut self) -> Type {
        let numeric: Vec<Type> = self
            .types
            .iter()
            .copied()
            .filter(|&t| t != Type::Bool)
            .collect();
        let i = self.below(numeric.len());
        numeric[i]
    }

    fn body(&mut self, depth: usize, in_loop: bool) -> Vec<Stmt> {
        let n = self.below(self.budget.min(MAX_BLOCK_STMTS) + 1);
        let mut stmts = Vec::new();
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            stmts.push(self.stmt(depth, in_loop));
        }
        stmts
    }

    fn stmt(&mut self, depth: usize, in_loop: bool) -> Stmt {
        let config = self.config;
        let nested = depth < config.max_depth;
        let weighted = [
            (Kind::Op, if self.ops.is_empty() { 0 } else { 8 }),
            (Kind::Const, 2),
            (Kind::Load, if config.memory { 3 } else { 0 }),
            (Kind::Store, if config.memory { 2 } else { 0 }),
            (Kind::If, if config.ifs && nested { 2 } else { 0 }),
            (Kind::Loop, if config.loops && nested { 1 } else { 0 }),
            (
                Kind::Switch,
                if config.switches && config.loops && nested {
                    1
                } else {
                    0
                },
            ),
            (Kind::Exit, if config.exits { 1 } else { 0 }),
            (Kind::Sample, if config.textures { 1 } else { 0 }),
            (Kind::Fetch, if config.textures { 1 } else { 0 }),
        ];
        let total: usize = weighted.iter().map(|&(_, w)| w).sum();
        let mut roll = self.below(total);
        let kind = weighted
            .iter()
            .find(|&&(_, w)| {
                if roll < w {
                    true
                } else {
                    roll -= w;
                    false
                }
            })
            .map_or(Kind::Const, |&(k, _)| k);
        match kind {
            Kind::Op => {
                let i = self.below(self.ops.len());
                let (op, ty, to) = self.ops[i];
                let args = [self.pick(), self.pick(), self.pick(), self.pick()];
                Stmt::Op { op, ty, to, args }
            }
            Kind::Const => {
                let ty = self.ty();
                Stmt::Const(self.constant(ty))
            }
            Kind::Load => {
                let ty = self.numeric_ty();
                let count = 1 + self.below(2) as u8;
                let addr = if self.chance(25) {
                    Addr::Private(self.private_at())
                } else if self.chance(60) {
                    Addr::Window(self.below(super::WINDOW as usize) as u8)
                } else if self.chance(40) {
                    if self.chance(25) {
                        Addr::Table(self.pick())
                    } else {
                        Addr::Gather(self.pick())
                    }
                } else if self.chance(50) {
                    Addr::Uniform(self.below(64) as u8)
                } else {
                    Addr::Strided(self.pick(), self.below(2) as u8)
                };
                Stmt::Load { ty, count, addr }
            }
            Kind::Store if self.chance(35) => Stmt::PrivateStore {
                at: self.private_at(),
                ty: self.ty(),
                count: 1 + self.below(2) as u8,
                value: self.pick(),
            },
            Kind::Store => Stmt::Store {
                slot: u8::arbitrary(self.g),
                ty: self.ty(),
                count: 1 + self.below(2) as u8,
                value: self.pick(),
            },
            Kind::If => {
                let cond = self.cond();
                let then_body = self.body(depth + 1, in_loop);
                let else_body = self.body(depth + 1, in_loop);
                let results = (0..self.below(3))
                    .map(|_| (self.ty(), self.pick(), self.pick()))
                    .collect();
                Stmt::If {
                    cond,
                    then_body,
                    else_body,
                    results,
                }
            }
            Kind::Loop => {
                let max = config.max_trips.max(1);
                let trips = if self.chance(60) {
                    Trips::Const(self.below(max as usize + 1) as u8)
                } else {
                    Trips::Data(self.pick(), max)
                };
                let carried = (0..self.below(3))
                    .map(|_| (self.ty(), self.pick(), self.pick()))
                    .collect();
                let body = self.body(depth + 1, true);
                Stmt::Loop {
                    trips,
                    carried,
                    body,
                }
            }
            Kind::Switch => {
                let selector = self.pick();
                let n = 1 + self.below(4);
                let cases = (0..n)
                    .map(|_| Case {
                        literal: self.below(8) as u8,
                        body: self.body(depth + 1, true),
                        falls: self.chance(40),
                        values: self.pick(),
                    })
                    .collect();
                let results = (0..self.below(3))
                    .map(|_| (self.ty(), self.pick()))
                    .collect();
                Stmt::Switch {
                    selector,
                    cases,
                    default: self.chance(60),
                    results,
                }
            }
            Kind::Sample => Stmt::Sample {
                coords: [self.pick(), self.pick()],
                lod: self.pick(),
            },
            Kind::Fetch => Stmt::Fetch {
                coords: [self.pick(), self.pick()],
                level: self.pick(),
            },
            Kind::Exit => {
                let kind = match (in_loop, self.below(4)) {
                    (true, 0) => ExitKind::Break,
                    (true, 1) => ExitKind::Continue,
                    (true, 2) => ExitKind::Break,
                    _ => ExitKind::Return,
                };
                Stmt::Exit {
                    kind,
                    cond: self.cond(),
                    values: self.pick(),
                }
            }
        }
    }

    /// Half the private accesses at a selected word, half at a constant one.
    fn private_at(&mut self) -> PrivateAt {
        if self.chance(50) {
            PrivateAt::Selected(self.pick())
        } else {
            PrivateAt::Fixed(self.below(PRIVATE_BYTES as usize / 4 - 1) as u8)
        }
    }

    fn cond(&mut self) -> Cond {
        if self.chance(40) {
            Cond::GidBit(self.below(8) as u8)
        } else {
            Cond::Value(self.pick())
        }
    }

    fn constant(&mut self, ty: Type) -> Const {
        let special = self.chance(60);
        match ty {
            Type::Bool => Const::bool(bool::arbitrary(self.g)),
            Type::F16 | Type::F32 => {
                if special {
                    let v = SPECIAL_FLOATS[self.below(SPECIAL_FLOATS.len())];
                    if ty == Type::F16 {
                        Const::f16(f16::from_f64(v))
                    } else {
                        Const::f32(v as f32)
                    }
                } else {
                    Const::from_bits(ty, u64::arbitrary(self.g))
                }
            }
            _ => {
                if special {
                    let min = i64::MIN >> (64 - ty.bits());
                    let v = match self.below(SPECIAL_INTS.len() + 2) {
                        0 => min,
                        1 => !min,
                        i => SPECIAL_INTS[i - 2],
                    };
                    Const::int(ty, v)
                } else {
                    Const::from_bits(ty, u64::arbitrary(self.g))
                }
            }
        }
    }
}
