//! E-class analysis: the type of every e-class, constant folding and uniformity.
//!
//! - **Type**: every e-class has exactly one type, inferred from the operation table's
//!   signatures ([`Signature::infer`]); sample classes (a bundle of results) have none.
//! - **Constant**: an e-node whose operands are all constants is evaluated with the IR's own
//!   evaluation function ([`PureOp::eval`](crate::ir::PureOp::eval),
//!   [`CustomOp::eval`](crate::ir::CustomOp::eval)): one definition of each operation serves the
//!   interpreter, the folder and the rule checks. A class
//!   that becomes constant gets a constant e-node and loses its other e-nodes (nothing is cheaper
//!   than a constant, and the pruning keeps rules from working on dead alternatives).
//! - **Uniform**: the value is the same for every invocation of a dispatch or draw (constants and
//!   resource-size queries, and pure operations of those). Targets may price such values lower
//!   (the G13 computes them once in a preamble shader).

use super::language::{Kind, Node};
use crate::ir::{Builtin, Const, EffectOp, Signature, Type};
use egg::{DidMerge, Id};

/// The optimizer's e-graph.
pub type EGraph = egg::EGraph<Node, FactAnalysis>;

/// What the analysis knows about an e-class.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Facts {
    /// The value's type (`None` for a sample's result bundle).
    pub ty: Option<Type>,
    /// The value, if it is a compile-time constant.
    pub konst: Option<Const>,
    /// The value is the same for all invocations of a dispatch or draw.
    pub uniform: bool,
}

/// The analysis itself; `fold_constants` turns evaluation off (the soundness checker does that
/// so that the e-graph holds exactly what a rule built).
#[derive(Clone, Copy, Debug)]
pub struct FactAnalysis {
    /// Fold operations on constants.
    pub fold_constants: bool,
}

impl Default for FactAnalysis {
    fn default() -> Self {
        FactAnalysis {
            fold_constants: true,
        }
    }
}

/// The result type of an e-node whose children have the types `args`, or `None` if it has no
/// scalar type (samples) or the operands do not fit its signature.
pub fn node_type(kind: Kind, args: &[Option<Type>]) -> Option<Type> {
    match kind {
        Kind::Convert { to, .. } => Some(to),
        Kind::Const(c) => Some(c.ty()),
        Kind::Leaf { ty, .. } | Kind::Invariant { ty, .. } => Some(ty),
        Kind::Sample(_) => None,
        Kind::Pure { .. } | Kind::Custom(_) => {
            let sig = kind.signature()?;
            let tys: Option<smallvec::SmallVec<[Type; 4]>> = args.iter().copied().collect();
            sig.infer(&tys?).ok().flatten()
        }
    }
}

/// Evaluates an operation kind on constant operands (`None` for kinds that are not operations).
pub fn eval_kind(kind: Kind, args: &[Const], result: Type) -> Option<Const> {
    match kind {
        Kind::Pure { op, .. } | Kind::Convert { op, .. } => Some(op.eval(args, result)),
        Kind::Custom(c) => Some(c.eval(args, result)),
        Kind::Const(c) => Some(c),
        _ => None,
    }
}

/// True for invariant reads whose value is the same for a whole dispatch or draw.
fn is_dispatch_uniform(op: EffectOp) -> bool {
    matches!(
        op,
        EffectOp::TexSize(_)
            | EffectOp::TexLevels(_)
            | EffectOp::BufferSize(_)
            | EffectOp::Builtin(Builtin::WorkgroupSize(_) | Builtin::NumWorkgroups(_))
    )
}

impl egg::Analysis<Node> for FactAnalysis {
    type Data = Facts;

    fn make(egraph: &mut EGraph, enode: &Node, _id: Id) -> Facts {
        let child = |id: &Id| egraph[*id].data;
        let tys: smallvec::SmallVec<[Option<Type>; 4]> =
            enode.children.iter().map(|c| child(c).ty).collect();
        let ty = node_type(enode.kind, &tys).or_else(|| {
            // Only an ill-typed rule produces this; keep the first operand's type so the class
            // still has one (the soundness checker reports the rule).
            match enode.kind {
                Kind::Sample(_) => None,
                _ => tys.first().copied().flatten(),
            }
        });
        let all_uniform = enode.children.iter().all(|c| child(c).uniform);
        let uniform = match enode.kind {
            Kind::Const(_) => true,
            Kind::Leaf { .. } | Kind::Sample(_) => false,
            Kind::Invariant { op, .. } => is_dispatch_uniform(op) && all_uniform,
            Kind::Pure { .. } | Kind::Convert { .. } | Kind::Custom(_) => all_uniform,
        };
        let konst = match enode.kind {
            Kind::Const(c) => Some(c),
            Kind::Pure { .. } | Kind::Convert { .. } | Kind::Custom(_)
                if egraph.analysis.fold_constants =>
            {
                let args: Option<smallvec::SmallVec<[Const; 4]>> =
                    enode.children.iter().map(|c| child(c).konst).collect();
                match (args, ty) {
                    (Some(args), Some(ty)) if operands_fit(enode.kind, &args) => {
                        eval_kind(enode.kind, &args, ty)
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        Facts { ty, konst, uniform }
    }

    fn merge(&mut self, a: &mut Facts, b: Facts) -> DidMerge {
        debug_assert_eq!(
            a.ty, b.ty,
            "e-classes of different types merged: a rule is ill-typed"
        );
        let mut changed_a = false;
        let mut changed_b = false;
        match (a.konst, b.konst) {
            (None, Some(c)) => {
                a.konst = Some(c);
                changed_a = true;
            }
            (Some(_), None) => changed_b = true,
            // Two different constants mean an unsound rule; the soundness checker reports it.
            // Keep `a` rather than panic on user input.
            (Some(x), Some(y)) if x != y => changed_b = true,
            _ => {}
        }
        if a.uniform != b.uniform {
            if a.uniform {
                changed_b = true;
            } else {
                a.uniform = true;
                changed_a = true;
            }
        }
        DidMerge(changed_a, changed_b)
    }

    fn modify(egraph: &mut EGraph, id: Id) {
        let Some(c) = egraph[id].data.konst else {
            return;
        };
        if !egraph.analysis.fold_constants {
            return;
        }
        let already = egraph[id]
            .nodes
            .iter()
            .all(|n| matches!(n.kind, Kind::Const(_)));
        if already {
            return;
        }
        let konst = egraph.add(Node::konst(c));
        if egraph.are_explanations_enabled() {
            egraph.union_trusted(id, konst, "constant-fold");
        } else {
            egraph.union(id, konst);
        }
        // Without explanations nothing needs the folded-away forms: drop them so that rules stop
        // matching inside constant classes. (With explanations they stay, to keep proofs whole.)
        if !egraph.are_explanations_enabled() {
            let root = egraph.find(id);
            egraph[root]
                .nodes
                .retain(|n| matches!(n.kind, Kind::Const(_)));
        }
    }
}

/// Operand types must fit the signature before an evaluation function is called (they assume
/// it); a mismatch can only come from an ill-typed rule, which is then simply not folded.
fn operands_fit(kind: Kind, args: &[Const]) -> bool {
    let Some(sig) = kind.signature() else {
        return true;
    };
    let tys: smallvec::SmallVec<[Type; 4]> = args.iter().map(|c| c.ty()).collect();
    match sig {
        Signature::Convert { .. } => sig.infer(&tys).is_ok(),
        _ => matches!(sig.infer(&tys), Ok(Some(_))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{InstFlags, PureOp, Value};

    fn leaf(egraph: &mut EGraph, n: u32, ty: Type) -> Id {
        egraph.add(Node::leaf(Kind::Leaf {
            value: Value::from_u32(n),
            ty,
        }))
    }

    #[test]
    fn folds_through_the_table_and_prunes() {
        let mut eg = EGraph::default();
        let two = eg.add(Node::konst(Const::f32(2.0)));
        let three = eg.add(Node::konst(Const::f32(3.0)));
        let mul = eg.add(Node::new(Kind::pure(PureOp::Fmul), &[two, three]));
        eg.rebuild();
        let mul = eg.find(mul);
        assert_eq!(eg[mul].data.konst, Some(Const::f32(6.0)));
        assert_eq!(eg[mul].data.ty, Some(Type::F32));
        assert!(eg[mul].data.uniform);
        assert_eq!(eg[mul].nodes, vec![Node::konst(Const::f32(6.0))]);
    }

    #[test]
    fn conversions_and_comparisons_get_their_types() {
        let mut eg = EGraph::default();
        let x = leaf(&mut eg, 0, Type::I32);
        let f = eg.add(Node::new(
            Kind::table(PureOp::S2f, Type::F16, InstFlags::NONE),
            &[x],
        ));
        let c = eg.add(Node::new(Kind::pure(PureOp::Flt), &[f, f]));
        assert_eq!(eg[f].data.ty, Some(Type::F16));
        assert_eq!(eg[c].data.ty, Some(Type::Bool));
        assert_eq!(eg[c].data.konst, None);
        assert!(!eg[c].data.uniform);
    }

    #[test]
    fn folding_can_be_turned_off() {
        let mut eg = EGraph::new(FactAnalysis {
            fold_constants: false,
        });
        let one = eg.add(Node::konst(Const::i32(1)));
        let sum = eg.add(Node::new(Kind::pure(PureOp::Iadd), &[one, one]));
        eg.rebuild();
        assert_eq!(eg[sum].data.konst, None);
        assert_eq!(eg[sum].nodes.len(), 1);
    }
}
