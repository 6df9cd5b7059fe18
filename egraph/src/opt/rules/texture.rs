//! Texture sampling rules: gradient sampling to explicit LOD (`txd` to `txl`), projector
//! division (`txp`) and bias handling, as the `lower_txd*`/`lower_txp` options of
//! `nir_lower_tex` describe them (seeds/003, "Texture instruction lowering").
//!
//! # How samples take part
//! A sample is an effect and stays where it is in the control-flow skeleton, but its *operation*
//! is an e-node ([`Kind::Sample`]) whose e-class the skeleton's anchor refers to. These rules add
//! equivalent sample forms to that class (an explicit-LOD sample whose LOD operand is an e-class
//! computing the LOD from the gradients); extraction picks one form per anchor with the target's
//! costs, and elaboration emits it at the anchor. Implicit-LOD samples are anchored alike; only the
//! bias and projector rules apply to them (their derivatives come from the quad, which does not
//! change when the coordinates are divided first).
//!
//! # The LOD formula
//! Exactly the one in the project's texture semantics (briefs/texture-semantics.md, items 1-3,
//! from the Vulkan specification's "Texel Filtering" chapter): texel-space derivatives
//! `du/dx = ds/dx * width` (per axis of the dimension, the layer excluded), `rho_x =
//! sqrt(sum (du/dx)^2)`, `rho = max(rho_x, rho_y)`, `lambda = log2(rho)`; for cube maps the face
//! is chosen from the lane's own coordinate and `ds = 0.5 * (dsc * |ma| - sc * d|ma|) / ma^2`.
//! The size is the level-0 `tex_size`. Sampler and shader bias and the LOD clamps apply after
//! `lambda` in both forms, so the min-LOD operand is carried over unchanged.
//!
//! When the target keeps gradient sampling native, `txd-to-txl` only offers the alternative and
//! the cost model decides (zero or constant gradients make the LOD cheap or uniform). Cube maps are
//! different: `txd-cube-to-txl` is mandatory, and targets price gradient sampling of cube maps as
//! unavailable (the G13's gradients misbehave there; `lower_txd_cube_map`).
//!
//! Only f32 operands are rewritten (f16 texture coordinates are rare and would compute the LOD
//! in f16).

use super::super::analysis::{EGraph, FactAnalysis};
use super::super::language::{Kind, Node};
use super::super::term::Term;
use super::{Domain, Origin, Rule, Tolerance};
use crate::ir::{
    Binding, Const, EffectOp, LodMode, PureOp, SampleOp, SizeOp, TexDim, TexTarget, Type,
};
use egg::{Applier, Id, PatternAst, Rewrite, SearchMatches, Searcher, Subst, Symbol, Var};

/// The operands of a sample, split by role (see [`SampleOp`] for the order).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SampleParts<T> {
    /// Coordinates.
    pub coords: Vec<T>,
    /// Array layer.
    pub layer: Option<T>,
    /// Projector.
    pub proj: Option<T>,
    /// Depth reference.
    pub dref: Option<T>,
    /// Bias or explicit LOD.
    pub lod: Option<T>,
    /// d/dx per coordinate.
    pub ddx: Vec<T>,
    /// d/dy per coordinate.
    pub ddy: Vec<T>,
    /// Minimum LOD.
    pub min_lod: Option<T>,
}

impl<T: Copy> SampleParts<T> {
    /// Splits `args` (which must have `op.arity()` entries) by role.
    pub fn split(op: &SampleOp, args: &[T]) -> Option<SampleParts<T>> {
        if args.len() != op.arity() {
            return None;
        }
        let n = op.target.dim.coords();
        let mut it = args.iter().copied();
        let mut take = |present: bool| if present { it.next() } else { None };
        let coords: Vec<T> = (0..n).filter_map(|_| take(true)).collect();
        let layer = take(op.target.arrayed);
        let proj = take(op.proj);
        let dref = take(op.shadow);
        let lod = take(matches!(op.lod, LodMode::Bias | LodMode::Explicit));
        let grads = op.lod == LodMode::Grad;
        let ddx: Vec<T> = (0..n).filter_map(|_| take(grads)).collect();
        let ddy: Vec<T> = (0..n).filter_map(|_| take(grads)).collect();
        let min_lod = take(op.min_lod);
        Some(SampleParts {
            coords,
            layer,
            proj,
            dref,
            lod,
            ddx,
            ddy,
            min_lod,
        })
    }

    /// The operand list in [`SampleOp`] order (the inverse of [`SampleParts::split`]).
    pub fn assemble(&self) -> Vec<T> {
        let mut v = self.coords.clone();
        v.extend(self.layer);
        v.extend(self.proj);
        v.extend(self.dref);
        v.extend(self.lod);
        v.extend(self.ddx.iter().copied());
        v.extend(self.ddy.iter().copied());
        v.extend(self.min_lod);
        v
    }
}

/// Adds e-nodes (the rules build their right sides with code: the LOD formula has a shape per
/// dimension).
struct Build<'a> {
    eg: &'a mut EGraph,
}

impl Build<'_> {
    fn op(&mut self, op: PureOp, kids: &[Id]) -> Id {
        self.eg.add(Node::new(Kind::pure(op), kids))
    }
    fn f32(&mut self, v: f32) -> Id {
        self.eg.add(Node::konst(Const::f32(v)))
    }
    fn neg(&mut self, x: Id) -> Id {
        self.op(PureOp::Fneg, &[x])
    }
    fn select(&mut self, c: Id, a: Id, b: Id) -> Id {
        self.op(PureOp::Select, &[c, a, b])
    }
    /// Level-0 size along `axis` as f32.
    fn size(&mut self, texture: Binding, target: TexTarget, axis: u8) -> Id {
        let level = self.eg.add(Node::konst(Const::i32(0)));
        let size = self.eg.add(Node::new(
            Kind::Invariant {
                op: EffectOp::TexSize(SizeOp { texture, target }),
                index: axis,
                ty: Type::I32,
            },
            &[level],
        ));
        self.eg.add(Node::new(
            Kind::Convert {
                op: PureOp::U2f,
                to: Type::F32,
            },
            &[size],
        ))
    }
    /// sqrt(sum of squares of d[i] * size[i]).
    fn rho(&mut self, d: &[Id], sizes: &[Id]) -> Id {
        let mut acc: Option<Id> = None;
        for (&di, &si) in d.iter().zip(sizes) {
            let du = self.op(PureOp::Fmul, &[di, si]);
            let sq = self.op(PureOp::Fmul, &[du, du]);
            acc = Some(match acc {
                None => sq,
                Some(a) => self.op(PureOp::Fadd, &[a, sq]),
            });
        }
        let sum = acc.unwrap_or_else(|| self.f32(0.0));
        self.op(PureOp::Sqrt, &[sum])
    }
    fn log2_max(&mut self, rho_x: Id, rho_y: Id) -> Id {
        let rho = self.op(PureOp::Fmax, &[rho_x, rho_y]);
        self.op(PureOp::Log2, &[rho])
    }
}

/// lambda for a 1D/2D/3D (array) texture from explicit gradients.
fn lod_plain(b: &mut Build<'_>, op: &SampleOp, p: &SampleParts<Id>) -> Id {
    let sizes: Vec<Id> = (0..p.coords.len())
        .map(|i| b.size(op.texture, op.target, i as u8))
        .collect();
    let rx = b.rho(&p.ddx, &sizes);
    let ry = b.rho(&p.ddy, &sizes);
    b.log2_max(rx, ry)
}

/// The cube face's (sc, tc, ma) of a direction, or of its derivative `d` (with the face and
/// signs of the lane's coordinate `r`), following the table in texture-semantics item 1.
struct Face {
    is_z: Id,
    is_y: Id,
    neg_x: Id,
    neg_y: Id,
    neg_z: Id,
}

impl Face {
    fn new(b: &mut Build<'_>, r: &[Id]) -> Face {
        let ax = b.op(PureOp::Fabs, &[r[0]]);
        let ay = b.op(PureOp::Fabs, &[r[1]]);
        let az = b.op(PureOp::Fabs, &[r[2]]);
        let z_ge_x = b.op(PureOp::Fge, &[az, ax]);
        let z_ge_y = b.op(PureOp::Fge, &[az, ay]);
        let is_z = b.op(PureOp::And, &[z_ge_x, z_ge_y]);
        let is_y = b.op(PureOp::Fge, &[ay, ax]);
        let zero = b.f32(0.0);
        let neg_x = b.op(PureOp::Flt, &[r[0], zero]);
        let neg_y = b.op(PureOp::Flt, &[r[1], zero]);
        let neg_z = b.op(PureOp::Flt, &[r[2], zero]);
        Face {
            is_z,
            is_y,
            neg_x,
            neg_y,
            neg_z,
        }
    }

    /// (sc, tc, ma) of `v` (the coordinate or one of its derivatives).
    fn project(&self, b: &mut Build<'_>, v: &[Id]) -> (Id, Id, Id) {
        let (x, y, z) = (v[0], v[1], v[2]);
        let (nx, ny, nz) = (b.neg(x), b.neg(y), b.neg(z));
        // +X: (-rz, -ry, rx)  -X: (rz, -ry, rx)
        let sc_x = b.select(self.neg_x, z, nz);
        // +Y: (rx, rz, ry)  -Y: (rx, -rz, ry)
        let tc_y = b.select(self.neg_y, nz, z);
        // +Z: (rx, -ry, rz)  -Z: (-rx, -ry, rz)
        let sc_z = b.select(self.neg_z, nx, x);
        let sc_xy = b.select(self.is_y, x, sc_x);
        let sc = b.select(self.is_z, sc_z, sc_xy);
        let tc_xy = b.select(self.is_y, tc_y, ny);
        let tc = b.select(self.is_z, ny, tc_xy);
        let ma_xy = b.select(self.is_y, y, x);
        let ma = b.select(self.is_z, z, ma_xy);
        (sc, tc, ma)
    }
}

/// lambda for a cube map from explicit gradients (quotient rule per texture-semantics item 1).
fn lod_cube(b: &mut Build<'_>, op: &SampleOp, p: &SampleParts<Id>) -> Id {
    let face = Face::new(b, &p.coords);
    let (sc, tc, ma) = face.project(b, &p.coords);
    let abs_ma = b.op(PureOp::Fabs, &[ma]);
    let zero = b.f32(0.0);
    let ma_neg = b.op(PureOp::Flt, &[ma, zero]);
    let ma2 = b.op(PureOp::Fmul, &[ma, ma]);
    let half = b.f32(0.5);
    let size = b.size(op.texture, op.target, 0);
    let texel_rho = |b: &mut Build<'_>, d: &[Id]| -> Id {
        let (dsc, dtc, dma) = face.project(b, d);
        let ndma = b.neg(dma);
        let dabs = b.select(ma_neg, ndma, dma);
        let deriv = |b: &mut Build<'_>, dc: Id, c: Id| -> Id {
            let l = b.op(PureOp::Fmul, &[dc, abs_ma]);
            let r = b.op(PureOp::Fmul, &[c, dabs]);
            let num = b.op(PureOp::Fsub, &[l, r]);
            let scaled = b.op(PureOp::Fmul, &[half, num]);
            b.op(PureOp::Fdiv, &[scaled, ma2])
        };
        let ds = deriv(b, dsc, sc);
        let dt = deriv(b, dtc, tc);
        b.rho(&[ds, dt], &[size, size])
    };
    let rx = texel_rho(b, &p.ddx);
    let ry = texel_rho(b, &p.ddy);
    b.log2_max(rx, ry)
}

type Pred = fn(&SampleOp, &[Id], &EGraph) -> bool;
type BuildFn = fn(&mut EGraph, &SampleOp, &[Id]) -> Option<Node>;

/// Matches classes holding a sample e-node the predicate accepts (one empty substitution per
/// class; the applier finds the nodes again).
struct SampleSearcher {
    pred: Pred,
}

impl SampleSearcher {
    fn matches(
        &self,
        egraph: &EGraph,
        nodes: &[Node],
        eclass: Id,
    ) -> Option<SearchMatches<'_, Node>> {
        let hit = nodes.iter().any(|n| match n.kind {
            Kind::Sample(op) => (self.pred)(&op, &n.children, egraph),
            _ => false,
        });
        hit.then(|| SearchMatches {
            eclass,
            substs: vec![Subst::default()],
            ast: None,
        })
    }
}

impl Searcher<Node, FactAnalysis> for SampleSearcher {
    fn search_eclass_with_limit(
        &self,
        egraph: &EGraph,
        eclass: Id,
        _limit: usize,
    ) -> Option<SearchMatches<'_, Node>> {
        self.matches(egraph, &egraph[eclass].nodes, eclass)
    }

    /// `egg`'s default, which looks each class up by id again, with the classes as they are
    /// iterated (the same classes in the same order, one substitution each).
    fn search_with_limit(&self, egraph: &EGraph, mut limit: usize) -> Vec<SearchMatches<'_, Node>> {
        let mut out = Vec::new();
        for class in egraph.classes() {
            if limit == 0 {
                break;
            }
            if let Some(m) = self.matches(egraph, &class.nodes, class.id) {
                limit -= m.substs.len().min(limit);
                out.push(m);
            }
        }
        out
    }

    fn vars(&self) -> Vec<Var> {
        vec![]
    }
}

struct SampleApplier {
    pred: Pred,
    build: BuildFn,
}

impl Applier<Node, FactAnalysis> for SampleApplier {
    fn apply_one(
        &self,
        egraph: &mut EGraph,
        eclass: Id,
        _subst: &Subst,
        _ast: Option<&PatternAst<Node>>,
        rule_name: Symbol,
    ) -> Vec<Id> {
        let matching: Vec<(SampleOp, Vec<Id>)> = egraph[eclass]
            .nodes
            .iter()
            .filter_map(|n| match n.kind {
                Kind::Sample(op) if (self.pred)(&op, &n.children, egraph) => {
                    Some((op, n.children.to_vec()))
                }
                _ => None,
            })
            .collect();
        let mut changed = false;
        for (op, kids) in matching {
            if let Some(node) = (self.build)(egraph, &op, &kids) {
                let id = egraph.add(node);
                changed |= if egraph.are_explanations_enabled() {
                    egraph.union_trusted(eclass, id, rule_name)
                } else {
                    egraph.union(eclass, id)
                };
            }
        }
        if changed {
            vec![egraph.find(eclass)]
        } else {
            vec![]
        }
    }
}

fn all_f32(kids: &[Id], eg: &EGraph) -> bool {
    kids.iter().all(|&k| eg[k].data.ty == Some(Type::F32))
}

fn is_zero(id: Id, eg: &EGraph) -> bool {
    eg[id]
        .data
        .konst
        .is_some_and(|c| c.ty().is_float() && c.as_f64() == 0.0)
}

/// The sample with gradients replaced by an explicit LOD operand.
fn with_lod(op: &SampleOp, p: &SampleParts<Id>, lod: Id) -> Node {
    let mut new = *op;
    new.lod = LodMode::Explicit;
    let parts = SampleParts {
        lod: Some(lod),
        ddx: vec![],
        ddy: vec![],
        ..p.clone()
    };
    Node::new(Kind::Sample(new), &parts.assemble())
}

fn txd_plain_pred(op: &SampleOp, kids: &[Id], eg: &EGraph) -> bool {
    op.lod == LodMode::Grad && !op.proj && op.target.dim != TexDim::Cube && all_f32(kids, eg)
}

fn txd_cube_pred(op: &SampleOp, kids: &[Id], eg: &EGraph) -> bool {
    op.lod == LodMode::Grad && !op.proj && op.target.dim == TexDim::Cube && all_f32(kids, eg)
}

fn txd_zero_pred(op: &SampleOp, kids: &[Id], eg: &EGraph) -> bool {
    op.lod == LodMode::Grad
        && !op.proj
        && all_f32(kids, eg)
        && SampleParts::split(op, kids)
            .is_some_and(|p| p.ddx.iter().chain(&p.ddy).all(|&g| is_zero(g, eg)))
}

fn txp_pred(op: &SampleOp, kids: &[Id], eg: &EGraph) -> bool {
    op.proj && op.lod != LodMode::Grad && op.target.dim != TexDim::Cube && all_f32(kids, eg)
}

fn bias_zero_pred(op: &SampleOp, kids: &[Id], eg: &EGraph) -> bool {
    op.lod == LodMode::Bias
        && SampleParts::split(op, kids).is_some_and(|p| p.lod.is_some_and(|b| is_zero(b, eg)))
}

fn txd_plain_build(eg: &mut EGraph, op: &SampleOp, kids: &[Id]) -> Option<Node> {
    let p = SampleParts::split(op, kids)?;
    let lod = lod_plain(&mut Build { eg }, op, &p);
    Some(with_lod(op, &p, lod))
}

fn txd_cube_build(eg: &mut EGraph, op: &SampleOp, kids: &[Id]) -> Option<Node> {
    let p = SampleParts::split(op, kids)?;
    let lod = lod_cube(&mut Build { eg }, op, &p);
    Some(with_lod(op, &p, lod))
}

fn txd_zero_build(eg: &mut EGraph, op: &SampleOp, kids: &[Id]) -> Option<Node> {
    let p = SampleParts::split(op, kids)?;
    let lod = eg.add(Node::konst(Const::f32(f32::NEG_INFINITY)));
    Some(with_lod(op, &p, lod))
}

fn txp_build(eg: &mut EGraph, op: &SampleOp, kids: &[Id]) -> Option<Node> {
    let mut p = SampleParts::split(op, kids)?;
    let q = p.proj.take()?;
    let mut b = Build { eg };
    p.coords = p
        .coords
        .iter()
        .map(|&c| b.op(PureOp::Fdiv, &[c, q]))
        .collect();
    p.dref = p.dref.map(|d| b.op(PureOp::Fdiv, &[d, q]));
    let mut new = *op;
    new.proj = false;
    Some(Node::new(Kind::Sample(new), &p.assemble()))
}

fn bias_zero_build(_eg: &mut EGraph, op: &SampleOp, kids: &[Id]) -> Option<Node> {
    let mut p = SampleParts::split(op, kids)?;
    p.lod = None;
    let mut new = *op;
    new.lod = LodMode::Implicit;
    Some(Node::new(Kind::Sample(new), &p.assemble()))
}

/// Sample operations for the soundness check: every dimension, arrayed or not, with and without
/// depth comparison and minimum LOD, in the given LOD mode.
fn example_ops(lod: LodMode, proj: bool, cube: Option<bool>) -> Vec<SampleOp> {
    let mut out = Vec::new();
    for dim in [TexDim::D1, TexDim::D2, TexDim::D3, TexDim::Cube] {
        if cube.is_some_and(|c| c != (dim == TexDim::Cube)) {
            continue;
        }
        for arrayed in [false, true] {
            if dim == TexDim::D3 && arrayed {
                continue;
            }
            for (shadow, min_lod) in [(false, false), (true, false), (false, true), (true, true)] {
                out.push(SampleOp {
                    texture: Binding::new(0, 1),
                    sampler: Binding::new(0, 1),
                    target: TexTarget { dim, arrayed },
                    lod,
                    proj,
                    shadow,
                    min_lod,
                    offset: [0; 3],
                });
            }
        }
    }
    out
}

/// A left side for each op: the sample applied to fresh f32 variables (constants where `fixed`
/// says so, by operand index).
fn example_terms(ops: Vec<SampleOp>, fixed: fn(&SampleOp, usize) -> Option<Const>) -> Vec<Term> {
    ops.into_iter()
        .map(|op| {
            let kids = (0..op.arity())
                .map(|i| match fixed(&op, i) {
                    Some(c) => Term::Node(Kind::Const(c), vec![]),
                    None => Term::Var(format!("s{i}"), Some(Type::F32)),
                })
                .collect();
            Term::Node(Kind::Sample(op), kids)
        })
        .collect()
}

fn no_fixed(_: &SampleOp, _: usize) -> Option<Const> {
    None
}

fn zero_grads(op: &SampleOp, i: usize) -> Option<Const> {
    let idx: Vec<usize> = (0..op.arity()).collect();
    let p = SampleParts::split(op, &idx)?;
    p.ddx
        .iter()
        .chain(&p.ddy)
        .any(|&g| g == i)
        .then(|| Const::f32(if i.is_multiple_of(2) { 0.0 } else { -0.0 }))
}

fn zero_bias(op: &SampleOp, i: usize) -> Option<Const> {
    let idx: Vec<usize> = (0..op.arity()).collect();
    let p = SampleParts::split(op, &idx)?;
    (p.lod == Some(i)).then(|| Const::f32(0.0))
}

fn examples_txd_plain() -> Vec<Term> {
    example_terms(example_ops(LodMode::Grad, false, Some(false)), no_fixed)
}
fn examples_txd_cube() -> Vec<Term> {
    example_terms(example_ops(LodMode::Grad, false, Some(true)), no_fixed)
}
fn examples_txd_zero() -> Vec<Term> {
    example_terms(example_ops(LodMode::Grad, false, None), zero_grads)
}
fn examples_txp() -> Vec<Term> {
    let mut ops = example_ops(LodMode::Implicit, true, Some(false));
    ops.extend(example_ops(LodMode::Bias, true, Some(false)));
    ops.extend(example_ops(LodMode::Explicit, true, Some(false)));
    example_terms(ops, no_fixed)
}
fn examples_bias_zero() -> Vec<Term> {
    example_terms(example_ops(LodMode::Bias, false, None), zero_bias)
}

struct Spec {
    name: &'static str,
    doc: &'static str,
    pred: Pred,
    build: BuildFn,
    examples: super::Examples,
    tolerance: Tolerance,
    mandatory: bool,
}

/// Texture coordinates and gradients the soundness check draws: finite, not tiny (a cube
/// coordinate of zero has no face) and not huge (squares must not overflow f32).
const TEXTURE_DOMAIN: Domain = Domain::Magnitude(1.0 / 1024.0, 1024.0);

/// The predicates read a sample e-node's operands' facts (types, constants), one level below the
/// sample's class.
const TEXTURE_SEARCH_DEPTH: usize = 1;

/// The rules of this topic.
pub fn rules() -> Vec<Rule> {
    let specs = [
        Spec {
            name: "txd-to-txl",
            doc: "sample_grad(c, dx, dy) == sample_lod(c, log2(max(rho(dx), rho(dy)))) with \
                  rho(d) = sqrt(sum (d_i * size_i)^2) (texture semantics item 3); LOD rounded \
                  in f32.",
            pred: txd_plain_pred,
            build: txd_plain_build,
            examples: examples_txd_plain,
            tolerance: Tolerance::Abs(1e-4),
            mandatory: false,
        },
        Spec {
            name: "txd-cube-to-txl",
            doc: "sample_grad(cube r, dr/dx, dr/dy) == sample_lod(r, lambda) with the face's \
                  (sc, tc, ma) and ds = 0.5 (dsc |ma| - sc d|ma|) / ma^2 (texture semantics \
                  items 1 and 3); LOD rounded in f32.",
            pred: txd_cube_pred,
            build: txd_cube_build,
            examples: examples_txd_cube,
            tolerance: Tolerance::Abs(1e-4),
            mandatory: true,
        },
        Spec {
            name: "txd-zero-grad-to-txl",
            doc: "sample_grad(c, 0, 0) == sample_lod(c, -inf): zero gradients give rho = 0 and \
                  log2(0) = -inf, which the LOD clamps then bound.",
            pred: txd_zero_pred,
            build: txd_zero_build,
            examples: examples_txd_zero,
            tolerance: Tolerance::Exact,
            mandatory: false,
        },
        Spec {
            name: "txp-divide",
            doc: "sample_proj(c, q) == sample(c / q): the coordinates (not the layer) and the \
                  depth reference are divided by the projector (lower_txp).",
            pred: txp_pred,
            build: txp_build,
            examples: examples_txp,
            tolerance: Tolerance::Exact,
            mandatory: false,
        },
        Spec {
            name: "bias-zero-to-implicit",
            doc: "sample_bias(c, 0) == sample(c): lambda + 0 == lambda.",
            pred: bias_zero_pred,
            build: bias_zero_build,
            examples: examples_bias_zero,
            tolerance: Tolerance::Exact,
            mandatory: false,
        },
    ];
    specs
        .into_iter()
        .map(|s| Rule {
            name: s.name.into(),
            doc: s.doc.into(),
            tolerance: s.tolerance,
            domain: TEXTURE_DOMAIN,
            mandatory: s.mandatory,
            search_depth: TEXTURE_SEARCH_DEPTH,
            sample_root: true,
            origin: Origin::Custom(s.examples),
            examples: None,
            rewrite: Rewrite::new(
                s.name,
                SampleSearcher { pred: s.pred },
                SampleApplier {
                    pred: s.pred,
                    build: s.build,
                },
            )
            .unwrap_or_else(|e| panic!("texture rules have no variables: {e}")),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_and_assemble_are_inverse() {
        for op in example_ops(LodMode::Grad, false, None)
            .into_iter()
            .chain(example_ops(LodMode::Bias, true, Some(false)))
        {
            let args: Vec<usize> = (0..op.arity()).collect();
            let p = SampleParts::split(&op, &args).expect("right arity");
            assert_eq!(p.assemble(), args);
            assert_eq!(p.coords.len(), op.target.dim.coords());
        }
    }
}
