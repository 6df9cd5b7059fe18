//! The optimizer's `egg` language, derived from the IR's operation table.
//!
//! An e-node is a [`Kind`] and its children (e-class ids). The kinds are the IR's own operations:
//! [`PureOp`] (from the one table in `ir/ops.rs`), [`CustomOp`] (a target's operations), constants,
//! and the few non-pure things the e-graph must be able to name:
//!
//! - [`Kind::Leaf`]: a value the control-flow skeleton defines (an effect's result, a block
//!   parameter, an `if`/`loop` result). The e-graph knows nothing about it but its type.
//! - [`Kind::Invariant`]: one result of an *invariant read* (a texture size, a built-in, a stage
//!   input): effects whose result depends only on the invocation and its bound resources, so they
//!   float like pure values (they may be hoisted, sunk and shared).
//! - [`Kind::Sample`]: a texture sample's operation. The sample itself stays anchored in the
//!   skeleton, which refers to this node's e-class; rules add equivalent sample forms (explicit LOD
//!   for gradients, divided coordinates for projection) to that class and extraction picks one.
//!
//! There is no second list of operations: names, arities and types come from
//! [`PureOp::name`]/[`PureOp::signature`] and [`CustomOpDef`](crate::ir::CustomOpDef).
//!
//! # Flags
//! `NO_CONTRACT` is part of the kind of the contractable operations (`fadd.nocontract` is a
//! different e-node from `fadd`), so rules written for `fadd` never see it and fusion cannot happen;
//! on other operations the flag means nothing and is dropped. `RELAXED` is a permission, not an
//! identity: the optimizer tracks it per e-class (see `to_egraph`) instead of in the kind.

use crate::ir::{
    Const, CustomOp, EffectOp, Flags, InstFlags, LodMode, Op, PureOp, SampleOp, Signature, TexDim,
    Type, Value,
};
use core::fmt;
use egg::{FromOp, FromOpError, Id, Language};
use smallvec::SmallVec;

/// What an e-node computes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Kind {
    /// A table operation that is not a conversion; the result type follows from the operands.
    Pure {
        /// The operation.
        op: PureOp,
        /// The source forbids contraction (kept only for contractable operations).
        nocontract: bool,
    },
    /// A table conversion with its explicit result type.
    Convert {
        /// The operation (its signature is `Signature::Convert`).
        op: PureOp,
        /// The result type.
        to: Type,
    },
    /// A target operation.
    Custom(CustomOp),
    /// A constant.
    Const(Const),
    /// A value defined by the control-flow skeleton.
    Leaf {
        /// The value in the input function.
        value: Value,
        /// Its type.
        ty: Type,
    },
    /// Result `index` of an invariant read (children: its operands).
    Invariant {
        /// The effect (one of [`EffectOp::is_invariant_read`]).
        op: EffectOp,
        /// Which result.
        index: u8,
        /// The result's type.
        ty: Type,
    },
    /// A texture sample's operation (children: its operands); anchored by the skeleton.
    Sample(SampleOp),
}

impl Kind {
    /// A table operation, choosing `Pure` or `Convert` from its signature. `result` is only used
    /// for conversions. The no-contraction flag is kept only where it has a meaning.
    pub fn table(op: PureOp, result: Type, flags: InstFlags) -> Kind {
        match op.signature() {
            Signature::Convert { .. } => Kind::Convert { op, to: result },
            _ => Kind::Pure {
                op,
                nocontract: flags.contains(InstFlags::NO_CONTRACT)
                    && op.flags().contains(Flags::CONTRACTABLE),
            },
        }
    }

    /// A table operation without flags.
    pub fn pure(op: PureOp) -> Kind {
        Kind::Pure {
            op,
            nocontract: false,
        }
    }

    /// The kind of a pure instruction (`Op::Pure`, `Op::Custom`, `Op::Const`), or `None`.
    pub fn from_op(op: Op, result: Type, flags: InstFlags) -> Option<Kind> {
        match op {
            Op::Pure(p) => Some(Kind::table(p, result, flags)),
            Op::Custom(c) => Some(Kind::Custom(c)),
            Op::Const(c) => Some(Kind::Const(c)),
            _ => None,
        }
    }

    /// The IR operation and flags an e-node of this kind elaborates to (`None` for leaves, invariant
    /// reads and samples, which the skeleton emits).
    pub fn to_op(self) -> Option<(Op, InstFlags)> {
        match self {
            Kind::Pure { op, nocontract } => {
                let mut flags = InstFlags::NONE;
                flags.set(InstFlags::NO_CONTRACT, nocontract);
                Some((Op::Pure(op), flags))
            }
            Kind::Convert { op, .. } => Some((Op::Pure(op), InstFlags::NONE)),
            Kind::Custom(c) => Some((Op::Custom(c), InstFlags::NONE)),
            Kind::Const(c) => Some((Op::Const(c), InstFlags::NONE)),
            Kind::Leaf { .. } | Kind::Invariant { .. } | Kind::Sample(_) => None,
        }
    }

    /// The operand signature of operation kinds (`None` for constants, leaves, reads, samples).
    pub fn signature(self) -> Option<Signature> {
        match self {
            Kind::Pure { op, .. } | Kind::Convert { op, .. } => Some(op.signature()),
            Kind::Custom(c) => Some(c.signature()),
            _ => None,
        }
    }

    /// The number of children an e-node of this kind has, where fixed by the kind.
    pub fn arity(self) -> usize {
        match self {
            Kind::Pure { op, .. } | Kind::Convert { op, .. } => op.signature().arity(),
            Kind::Custom(c) => c.signature().arity(),
            Kind::Const(_) | Kind::Leaf { .. } => 0,
            Kind::Invariant { op, .. } => match op {
                EffectOp::TexSize(_) => 1,
                _ => 0,
            },
            Kind::Sample(s) => s.arity(),
        }
    }

    /// The constant, if this is one.
    pub fn as_const(self) -> Option<Const> {
        match self {
            Kind::Const(c) => Some(c),
            _ => None,
        }
    }

    /// Parses the text of a kind as [`Display`](fmt::Display) writes it: table names (with
    /// `.nocontract`), conversions as `name:type`, constants as `literal:type` (or `true`/`false`),
    /// leaves as `vN:type`. Target operations need a registry and are not accepted here.
    pub fn parse(text: &str) -> Option<Kind> {
        if let Some(base) = text.strip_suffix(".nocontract") {
            let op = PureOp::from_name(base)?;
            return match Kind::table(op, Type::Bool, InstFlags::NO_CONTRACT) {
                k @ Kind::Pure {
                    nocontract: true, ..
                } => Some(k),
                _ => None,
            };
        }
        if let Some(op) = PureOp::from_name(text) {
            return match op.signature() {
                Signature::Convert { .. } => None,
                _ => Some(Kind::pure(op)),
            };
        }
        match text {
            "true" => return Some(Kind::Const(Const::bool(true))),
            "false" => return Some(Kind::Const(Const::bool(false))),
            _ => {}
        }
        let (head, ty) = text.rsplit_once(':')?;
        let ty = Type::from_name(ty)?;
        if let Some(op) = PureOp::from_name(head) {
            return match op.signature() {
                Signature::Convert { .. } => Some(Kind::Convert { op, to: ty }),
                _ => None,
            };
        }
        if let Some(n) = head.strip_prefix('v').and_then(|n| n.parse::<u32>().ok()) {
            return Some(Kind::Leaf {
                value: Value::from_u32(n),
                ty,
            });
        }
        Const::parse(ty, head).ok().map(Kind::Const)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Kind::Pure { op, nocontract } => {
                f.write_str(op.name())?;
                if nocontract {
                    f.write_str(".nocontract")?;
                }
                Ok(())
            }
            Kind::Convert { op, to } => write!(f, "{}:{to}", op.name()),
            Kind::Custom(c) => f.write_str(c.name()),
            Kind::Const(c) if c.ty() == Type::Bool => write!(f, "{c}"),
            Kind::Const(c) => write!(f, "{c}:{}", c.ty()),
            Kind::Leaf { value, ty } => write!(f, "{value}:{ty}"),
            Kind::Invariant { op, index, ty } => write!(f, "{}", InvariantLabel(op, index, ty)),
            Kind::Sample(s) => write!(f, "{}", SampleLabel(s)),
        }
    }
}

/// A compact, space-free label of an invariant read.
struct InvariantLabel(EffectOp, u8, Type);

impl fmt::Display for InvariantLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let InvariantLabel(op, index, ty) = *self;
        match op {
            EffectOp::Builtin(b) => write!(f, "builtin.{b:?}")?,
            EffectOp::Input(slot) => write!(f, "input.{}.{}", slot.location, slot.component)?,
            EffectOp::TexSize(s) => write!(
                f,
                "tex_size.{}({},{})",
                target_name(s.target.dim, s.target.arrayed),
                s.texture.set,
                s.texture.binding
            )?,
            EffectOp::TexLevels(b) => write!(f, "tex_levels({},{})", b.set, b.binding)?,
            EffectOp::BufferSize(b) => write!(f, "buffer_size({},{})", b.set, b.binding)?,
            other => f.write_str(other.name())?,
        }
        write!(f, "#{index}:{ty}")
    }
}

fn target_name(dim: TexDim, arrayed: bool) -> String {
    if arrayed {
        format!("{}_array", dim.name())
    } else {
        dim.name().to_string()
    }
}

/// A compact, space-free label of a sample operation.
struct SampleLabel(SampleOp);

impl fmt::Display for SampleLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        let lod = match s.lod {
            LodMode::Implicit => "implicit",
            LodMode::Bias => "bias",
            LodMode::Explicit => "explicit",
            LodMode::Grad => "grad",
            LodMode::Gather(0) => "gather_x",
            LodMode::Gather(1) => "gather_y",
            LodMode::Gather(2) => "gather_z",
            LodMode::Gather(3) => "gather_w",
            LodMode::Gather(_) => "gather_invalid",
        };
        write!(
            f,
            "sample.{lod}.{}({},{})",
            target_name(s.target.dim, s.target.arrayed),
            s.texture.set,
            s.texture.binding
        )?;
        if s.sampler != s.texture {
            write!(f, ".sampler({},{})", s.sampler.set, s.sampler.binding)?;
        }
        if s.proj {
            f.write_str(".proj")?;
        }
        if s.shadow {
            f.write_str(".shadow")?;
        }
        if s.min_lod {
            f.write_str(".min_lod")?;
        }
        if s.offset != [0; 3] {
            write!(
                f,
                ".offset({},{},{})",
                s.offset[0], s.offset[1], s.offset[2]
            )?;
        }
        Ok(())
    }
}

/// An e-node: a kind and its children.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Node {
    /// What it computes.
    pub kind: Kind,
    /// Operand e-classes, in the operation's operand order.
    pub children: SmallVec<[Id; 3]>,
}

impl Node {
    /// An e-node.
    pub fn new(kind: Kind, children: &[Id]) -> Node {
        Node {
            kind,
            children: children.into(),
        }
    }

    /// A childless e-node.
    pub fn leaf(kind: Kind) -> Node {
        Node {
            kind,
            children: SmallVec::new(),
        }
    }

    /// A constant e-node.
    pub fn konst(c: Const) -> Node {
        Node::leaf(Kind::Const(c))
    }
}

impl Language for Node {
    type Discriminant = Kind;

    fn discriminant(&self) -> Kind {
        self.kind
    }

    fn matches(&self, other: &Node) -> bool {
        self.kind == other.kind && self.children.len() == other.children.len()
    }

    fn children(&self) -> &[Id] {
        &self.children
    }

    fn children_mut(&mut self) -> &mut [Id] {
        &mut self.children
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

impl FromOp for Node {
    type Error = FromOpError;

    fn from_op(op: &str, children: Vec<Id>) -> Result<Node, FromOpError> {
        match Kind::parse(op) {
            Some(kind) if kind.arity() == children.len() => Ok(Node {
                kind,
                children: children.into(),
            }),
            _ => Err(FromOpError::new(op, children)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egg::RecExpr;

    #[test]
    fn every_table_operation_round_trips_through_its_name() {
        for &op in PureOp::ALL {
            let kind = Kind::table(op, Type::F32, InstFlags::NONE);
            assert_eq!(Kind::parse(&kind.to_string()), Some(kind), "{}", op.name());
            let nc = Kind::table(op, Type::F32, InstFlags::NO_CONTRACT);
            assert_eq!(Kind::parse(&nc.to_string()), Some(nc), "{}", op.name());
        }
    }

    #[test]
    fn nocontract_is_kept_only_on_contractable_operations() {
        let add = Kind::table(PureOp::Fadd, Type::F32, InstFlags::NO_CONTRACT);
        assert_eq!(add.to_string(), "fadd.nocontract");
        let neg = Kind::table(PureOp::Fneg, Type::F32, InstFlags::NO_CONTRACT);
        assert_eq!(neg.to_string(), "fneg");
    }

    #[test]
    fn expressions_parse_with_table_names() {
        let e: RecExpr<Node> = "(fadd.nocontract (fmul v0:f32 1.5:f32) (s2f:f32 -3:i32))"
            .parse()
            .expect("valid expression");
        assert_eq!(
            e.to_string(),
            "(fadd.nocontract (fmul v0:f32 1.5:f32) (s2f:f32 -3:i32))"
        );
        assert!("(fadd v0:f32)".parse::<RecExpr<Node>>().is_err());
        assert!("(s2f v0:i32)".parse::<RecExpr<Node>>().is_err());
    }
}
