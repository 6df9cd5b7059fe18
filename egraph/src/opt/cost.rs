//! Cost of e-nodes: latency and issue cost, as targets describe their machines.
//!
//! A target prices each e-node ([`Target::cost`](super::target::Target::cost)) as an [`OpCost`];
//! extraction sums [`OpCost::scalar`] over the chosen DAG. [`generic_cost`] is the model used
//! without a target: a typical GPU where simple ALU operations issue in one cycle, negate, absolute
//! value and saturate are free source/destination modifiers, transcendental and division units
//! are slower, and 16-bit forms are cheaper (half the register space). Targets start from it and
//! override what they know better.

use super::analysis::Facts;
use super::language::{Kind, Node};
use crate::ir::{EffectOp, LodMode, PureOp, SampleOp, TexDim, Type};

/// Latency counts a quarter of issue cost: other SIMD groups hide most latency on a GPU, so
/// issue throughput dominates, but latency still breaks ties toward shorter dependency chains.
pub const LATENCY_WEIGHT: f64 = 0.25;

/// Every operation costs at least this much, so that cost strictly grows along every extracted
/// chain (no zero-cost cycles) and fewer operations win ties; modifiers cost exactly this.
pub const MIN_OP_COST: f64 = 1e-3;

/// 16-bit operations cost this fraction of their 32-bit forms: they occupy half a register, and
/// fewer registers mean more threads in flight (docs/g13.md, "Registers and occupancy").
pub const SIXTEEN_BIT_FACTOR: f64 = 0.8;

/// The cost of one e-node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpCost {
    /// Cycles until the result can be used.
    pub latency: f64,
    /// Cycles the issue slot is busy.
    pub issue: f64,
}

impl OpCost {
    /// Free (a modifier folded into a neighbouring instruction, or a value already computed).
    pub const FREE: OpCost = OpCost {
        latency: 0.0,
        issue: 0.0,
    };

    /// Not available on the target: never extracted if any alternative exists.
    pub const UNAVAILABLE: OpCost = OpCost {
        latency: f64::INFINITY,
        issue: f64::INFINITY,
    };

    /// A latency and an issue cost.
    pub const fn new(latency: f64, issue: f64) -> OpCost {
        OpCost { latency, issue }
    }

    /// The two combined: `issue + LATENCY_WEIGHT * latency`.
    pub fn scalar(self) -> f64 {
        self.issue + LATENCY_WEIGHT * self.latency
    }

    /// Scaled (for 16-bit forms and uniform values).
    pub fn scale(self, f: f64) -> OpCost {
        OpCost {
            latency: self.latency * f,
            issue: self.issue * f,
        }
    }

    /// Sum of two costs (an operation expanded into a sequence).
    pub fn plus(self, other: OpCost) -> OpCost {
        OpCost {
            latency: self.latency + other.latency,
            issue: self.issue + other.issue,
        }
    }
}

/// The cost extraction minimizes for an e-node: the target's [`OpCost::scalar`], at least
/// [`MIN_OP_COST`] for operations, zero for leaves (the skeleton computes them anyway).
pub fn extraction_cost(cost: OpCost, node: &Node) -> f64 {
    match node.kind {
        Kind::Leaf { .. } => 0.0,
        _ => cost.scalar().max(MIN_OP_COST),
    }
}

/// A simple ALU operation: one issue cycle, two of latency.
const ALU: OpCost = OpCost::new(2.0, 1.0);

/// The cost of a table operation on a typical GPU.
pub fn generic_op_cost(op: PureOp) -> OpCost {
    use PureOp::*;
    match op {
        Fneg | Fabs | Fsat => OpCost::FREE,
        Fadd | Fsub | Fmul | Fma | Fmin | Fmax => ALU,
        Floor | Ceil | Ftrunc | FroundEven => OpCost::new(3.0, 2.0),
        Fract => OpCost::new(5.0, 3.0),
        Fdiv => OpCost::new(7.0, 4.0),
        Rcp => OpCost::new(5.0, 3.0),
        Sqrt | Rsqrt => OpCost::new(6.0, 4.0),
        Exp2 | Log2 => OpCost::new(5.0, 2.0),
        Sin | Cos => OpCost::new(12.0, 6.0),
        Pow => OpCost::new(12.0, 5.0),
        Feq | Fne | Flt | Fle | Fgt | Fge | Fequ | Fneu | Fltu | Fleu | Fgtu | Fgeu => ALU,
        Iadd | Isub | Ineg | Iabs | Umin | Umax | Smin | Smax => ALU,
        Imul | Umulhi | Smulhi => OpCost::new(3.0, 2.0),
        Udiv | Sdiv | Urem | Srem => OpCost::new(40.0, 20.0),
        Ishl | Ushr | Sshr | And | Or | Xor | Not => ALU,
        Bfi | Ubfe | Sbfe | Popcount | FindLsb | UfindMsb | SfindMsb | Bitrev => ALU,
        Ieq | Ine | Ult | Ule | Ugt | Uge | Slt | Sle | Sgt | Sge => ALU,
        Fcvt | Uext | Sext | Itrunc | F2u | F2s | U2f | S2f => ALU,
        Bitcast => OpCost::FREE,
        Select => ALU,
    }
}

/// A texture sample on a typical GPU: a few issue cycles, more for each operand register the
/// sampler has to read; gradient sampling also reads the gradients. Two forms are unavailable,
/// as on most GPUs (the drivers set the corresponding `nir_lower_tex` options, seeds/003):
/// gradient sampling of cube maps (`lower_txd_cube_map`; `txd-cube-to-txl` provides the
/// explicit-LOD form) and projective sampling (`lower_txp`; `txp-divide` divides first).
pub fn generic_sample_cost(op: &SampleOp) -> OpCost {
    if (op.lod == LodMode::Grad && op.target.dim == TexDim::Cube) || op.proj {
        return OpCost::UNAVAILABLE;
    }
    let operands = op.arity() as f64;
    let grad_penalty = if op.lod == LodMode::Grad { 4.0 } else { 0.0 };
    OpCost::new(8.0, 4.0 + operands + grad_penalty)
}

/// The generic model for any e-node.
pub fn generic_cost(node: &Node, facts: &Facts) -> OpCost {
    let base = match node.kind {
        Kind::Pure { op, .. } | Kind::Convert { op, .. } => generic_op_cost(op),
        Kind::Custom(_) => ALU,
        Kind::Const(_) => OpCost::new(0.0, 0.1),
        Kind::Leaf { .. } => OpCost::FREE,
        Kind::Invariant { op, .. } => match op {
            EffectOp::TexSize(_) | EffectOp::TexLevels(_) => OpCost::new(4.0, 2.0),
            _ => OpCost::new(1.0, 0.5),
        },
        Kind::Sample(s) => return generic_sample_cost(&s),
    };
    match facts.ty {
        Some(Type::F16 | Type::I16) => base.scale(SIXTEEN_BIT_FACTOR),
        _ => base,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Binding, TexTarget};

    #[test]
    fn modifiers_are_free_and_sixteen_bit_is_cheaper() {
        let facts = |ty| Facts {
            ty: Some(ty),
            konst: None,
            uniform: false,
        };
        let neg = Node::leaf(Kind::pure(PureOp::Fneg));
        assert_eq!(generic_cost(&neg, &facts(Type::F32)).scalar(), 0.0);
        let add = Node::leaf(Kind::pure(PureOp::Fadd));
        let full = generic_cost(&add, &facts(Type::F32)).scalar();
        let half = generic_cost(&add, &facts(Type::F16)).scalar();
        assert!(half < full, "{half} < {full}");
        assert_eq!(full, 1.0 + 2.0 * LATENCY_WEIGHT);
    }

    #[test]
    fn gradient_cube_sampling_is_unavailable() {
        let mut op = SampleOp {
            texture: Binding::new(0, 0),
            sampler: Binding::new(0, 0),
            target: TexTarget {
                dim: TexDim::Cube,
                arrayed: false,
            },
            lod: LodMode::Grad,
            proj: false,
            shadow: false,
            min_lod: false,
            offset: [0; 3],
        };
        assert!(generic_sample_cost(&op).scalar().is_infinite());
        op.lod = LodMode::Explicit;
        assert!(generic_sample_cost(&op).scalar().is_finite());
    }
}
