//! The G13 cost model for extraction.
//!
//! Latency and issue cost per e-node from the shared G13 instruction description's timing table
//! (`agxc_g13_isa::timing`: docs/g13.md's "Latency model", a production compiler's numbers, in
//! cycles), which the simulator's timing model reads too; operations the G13 lacks are either
//! unavailable (a mandatory rule lowers them: `sin`, `cos`, `sqrt`, `fract`) or priced as the sequence
//! instruction selection will emit (`fdiv` = `rcp` + `fmul`, `pow` = `log2` + `fmul` + `exp2`).
//!
//! - Source negate/absolute value and the destination saturate are free modifiers.
//! - A `select` of a comparison has a fused form, one `fcmpsel`/`icmpsel` priced like an add
//!   ([`cmpsel`](super::cmpsel)). Comparisons themselves are priced at half a select: an `if`
//!   fuses them too (`if_fcmp`/`if_icmp`), and only a materialized bool costs a full
//!   instruction, which extraction cannot see per node.
//! - 16-bit forms cost [`SIXTEEN_BIT_FACTOR`] of the
//!   32-bit ones: half the register space, and fewer registers mean more threads in flight
//!   (docs/g13.md, "Registers and occupancy").
//! - Uniform values (constants, resource sizes and what is computed from them only) cost
//!   [`UNIFORM_FACTOR`] of their price. Mesa's AGX compiler computes them once per draw or
//!   dispatch in a preamble (`agx_nir_opt_preamble.c`), which would make them nearly free; this
//!   backend has no preamble yet, so every thread computes them and they cost in full (with a
//!   factor of 0.1, extraction turned `textureGrad` with constant gradients into 30 per-thread
//!   instructions of LOD arithmetic on the texture size, `frag_texture_grad_proj`).
//! - Texture samples: gradient sampling stays native except on cube maps, where the G13's
//!   gradients misbehave (docs/g13.md, "texture_sample"), and there is no projective sampling; the
//!   gradients (2n registers) and every other operand are priced as registers the sampler reads.

use agxc_egraph::ir::{EffectOp, LodMode, PureOp, SampleOp, TexDim, Type};
use agxc_egraph::opt::cost::{OpCost, SIXTEEN_BIT_FACTOR};
use agxc_egraph::opt::{Facts, Kind, Node};
use agxc_g13_isa::timing::timing;
use agxc_g13_isa::Opcode;

/// Uniform values cost this fraction of their price: 1 while every thread computes them (no
/// preamble yet); with a preamble, computing them once per draw or dispatch, a small fraction
/// (not zero: preamble work still delays the first wave).
pub const UNIFORM_FACTOR: f64 = 1.0;

/// Extra issue cost of gradient mode over explicit LOD: the sampler reads 2n interleaved
/// gradient registers (dx.x, dy.x, dx.y, dy.y, ...), which the shader must first move into place.
pub const GRADIENT_PENALTY: f64 = 4.0;

/// The extraction cost of one instruction: its latency and issue interval in the shared G13
/// description's table (`agxc_g13_isa::timing`).
const fn instruction(op: Opcode) -> OpCost {
    let c = timing(op).1;
    OpCost::new(c.latency as f64, c.interval as f64)
}

/// `fmadd`, `fadd`, `fmul`, `iadd`, `icmpsel`, `fcmpsel` (2/1).
const FAST: OpCost = instruction(Opcode::Fmadd);
/// `imadd`, `sin_pt_1`, `floor`/`ceil`/`trunc`/`rint` (3/2).
const MEDIUM: OpCost = instruction(Opcode::Imadd);
/// `sin_pt_2`, `log2`, `exp2` (5/2).
const SLOW: OpCost = instruction(Opcode::Log2);
/// The IR's exact `rcp`: the G13's `rcp` refined by two `fmadd`s and an `fcmpsel`.
const RCP_REFINED: OpCost = OpCost::new(11.0, 6.0);
/// `g13.urcp`: two conversions, `rcp`, a scaling `fmul`, a negation and two `imadd`s and an
/// `iadd` of the Newton-Raphson step ([`super::divide`]).
const URCP: OpCost = OpCost::new(21.0, 12.0);
/// An integer division left whole: what instruction selection expands it to, priced above its
/// expansion in the e-graph ([`super::divide`]; about 43 cycles and 24 issue slots unsigned),
/// so that the expansion, whose divisor part divisions share and uniform divisors discount, is
/// chosen.
const INT_DIVIDE: OpCost = OpCost::new(60.0, 32.0);
/// A float division left whole, likewise: its expansion is the refined reciprocal, a multiply,
/// two fused multiply-adds and two selects (21 cycles, 11 slots).
const FDIV: OpCost = OpCost::new(22.0, 12.0);
/// `rsqrt` (and `rsqrt_special`; 6/4).
const RSQRT: OpCost = instruction(Opcode::Rsqrt);

/// The cost of a table operation on the G13.
pub fn op_cost(op: PureOp) -> OpCost {
    use PureOp::*;
    match op {
        Fneg | Fabs | Fsat | Bitcast => OpCost::FREE,
        Fadd | Fsub | Fmul | Fma | Fmin | Fmax => FAST,
        Floor | Ceil | Ftrunc | FroundEven => MEDIUM,
        // Lowered by mandatory rules (`fract-to-floor`, `sqrt-to-rsqrt-special`, sin/cos).
        Fract | Sqrt | Sin | Cos => OpCost::UNAVAILABLE,
        Fdiv => FDIV,
        Rcp => RCP_REFINED,
        Rsqrt => RSQRT,
        Exp2 | Log2 => SLOW,
        Pow => SLOW.plus(FAST).plus(SLOW),
        Feq | Fne | Flt | Fle | Fgt | Fge | Fequ | Fneu | Fltu | Fleu | Fgtu | Fgeu => {
            FAST.scale(0.5)
        }
        Ieq | Ine | Ult | Ule | Ugt | Uge | Slt | Sle | Sgt | Sge => FAST.scale(0.5),
        Iadd | Isub | Ineg | Iabs | Umin | Umax | Smin | Smax | Select => FAST,
        Imul | Umulhi | Smulhi => MEDIUM,
        // No divider: a sequence of a reciprocal estimate and multiply-adds.
        Udiv | Urem => INT_DIVIDE,
        Sdiv | Srem => INT_DIVIDE.plus(FAST.scale(4.0)),
        Ishl | Ushr | Sshr | And | Or | Xor | Not => FAST,
        Bfi | Ubfe | Sbfe | Popcount | FindLsb | UfindMsb | SfindMsb | Bitrev => FAST,
        Fcvt | Uext | Sext | Itrunc | F2u | F2s | U2f | S2f => FAST,
    }
}

/// The cost of a G13 operation by name (`None` for other targets' operations).
pub fn custom_cost(name: &str) -> Option<OpCost> {
    Some(match name {
        "g13.sin_pt_1" => MEDIUM,
        "g13.sin_pt_2" => SLOW,
        "g13.rsqrt_special" => RSQRT,
        "g13.fmadd_sat" | "g13.fadd_sat" | "g13.fmul_sat" => FAST,
        "g13.urcp" => URCP,
        "g13.imadd" => MEDIUM,
        _ if super::cmpsel::comparison_by_name(name).is_some() => FAST,
        _ => return None,
    })
}

/// The cost of a texture sample.
pub fn sample_cost(op: &SampleOp) -> OpCost {
    if (op.lod == LodMode::Grad && op.target.dim == TexDim::Cube) || op.proj {
        return OpCost::UNAVAILABLE;
    }
    let penalty = if op.lod == LodMode::Grad {
        GRADIENT_PENALTY
    } else {
        0.0
    };
    OpCost::new(8.0, 4.0 + op.arity() as f64 + penalty)
}

/// The cost of an e-node whose class has `facts`.
pub fn cost(node: &Node, facts: &Facts) -> OpCost {
    let base = match node.kind {
        Kind::Pure { op, .. } | Kind::Convert { op, .. } => op_cost(op),
        Kind::Custom(c) => custom_cost(c.name()).unwrap_or(FAST),
        Kind::Const(_) => OpCost::new(0.0, 0.1),
        Kind::Leaf { .. } => OpCost::FREE,
        Kind::Invariant { op, .. } => match op {
            EffectOp::TexSize(_) | EffectOp::TexLevels(_) => MEDIUM,
            _ => OpCost::new(1.0, 0.5),
        },
        Kind::Sample(s) => return sample_cost(&s),
    };
    let base = match facts.ty {
        Some(Type::F16 | Type::I16) => base.scale(SIXTEEN_BIT_FACTOR),
        _ => base,
    };
    if facts.uniform {
        base.scale(UNIFORM_FACTOR)
    } else {
        base
    }
}
