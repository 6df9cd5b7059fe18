//! Decorations: collected per id and per structure member, checked against the supported list.
//!
//! Decoration groups (`OpDecorationGroup`, `OpGroupDecorate`, `OpGroupMemberDecorate`) are
//! expanded onto their targets.

use super::error::SpirvError;
use super::module::{Id, Inst};
use rspirv::dr::Operand;
use spirv::{BuiltIn, Decoration, Op};
use std::collections::HashMap;

/// One decoration: its kind and its literal operands.
#[derive(Clone, Debug)]
pub(crate) struct Deco {
    pub kind: Decoration,
    pub args: Vec<Operand>,
}

impl Deco {
    /// The first literal operand.
    pub fn literal(&self) -> Option<u32> {
        match self.args.first()? {
            Operand::LiteralBit32(v) => Some(*v),
            _ => None,
        }
    }
}

/// Every decoration in the module.
#[derive(Clone, Debug, Default)]
pub(crate) struct Decorations {
    ids: HashMap<Id, Vec<Deco>>,
    members: HashMap<(Id, u32), Vec<Deco>>,
}

/// How this front end treats a decoration.
enum Support {
    /// Used by the lowering.
    Used,
    /// Has no effect on what the shader computes here (aliasing hints, reflection data,
    /// interpolation qualifiers that coincide with the pixel centre at one sample per pixel).
    Ignored,
    /// Changes the meaning in a way this front end does not implement.
    Unsupported,
}

fn support(d: Decoration) -> Support {
    use Decoration as D;
    match d {
        D::SpecId
        | D::Block
        | D::BufferBlock
        | D::RowMajor
        | D::ColMajor
        | D::ArrayStride
        | D::MatrixStride
        | D::Offset
        | D::BuiltIn
        | D::NoPerspective
        | D::Flat
        | D::Location
        | D::Stream
        | D::Component
        | D::Binding
        | D::DescriptorSet
        | D::NoContraction
        | D::RelaxedPrecision => Support::Used,
        // Centroid and Sample select where in the pixel an input is interpolated; with one
        // sample per pixel (the only mode of this pipeline) both are the pixel centre.
        D::Centroid
        | D::Sample
        | D::Invariant
        | D::GLSLShared
        | D::GLSLPacked
        | D::Restrict
        | D::Aliased
        | D::Volatile
        | D::Coherent
        | D::NonWritable
        | D::NonReadable
        | D::Uniform
        | D::UniformId
        | D::NonUniform
        | D::RestrictPointer
        | D::AliasedPointer
        | D::UserSemantic
        | D::UserTypeGOOGLE
        | D::CounterBuffer
        | D::NoSignedWrap
        | D::NoUnsignedWrap
        | D::Constant
        | D::Alignment
        | D::MaxByteOffset => Support::Ignored,
        _ => Support::Unsupported,
    }
}

impl Decorations {
    /// Collects and checks the annotation section.
    pub fn collect(annotations: &[Inst]) -> Result<Decorations, SpirvError> {
        let mut decos = Decorations::default();
        let mut groups: HashMap<Id, Vec<Deco>> = HashMap::new();
        // Decoration groups are decorated like any id; collect everything, then expand.
        for inst in annotations {
            match inst.opcode {
                Op::Decorate | Op::DecorateId | Op::DecorateString => {
                    let target = inst.id(0)?;
                    let deco = decoration(inst, 1)?;
                    decos.ids.entry(target).or_default().push(deco);
                }
                Op::MemberDecorate | Op::MemberDecorateString => {
                    let target = inst.id(0)?;
                    let member = inst.literal(1)?;
                    let deco = decoration(inst, 2)?;
                    decos
                        .members
                        .entry((target, member))
                        .or_default()
                        .push(deco);
                }
                Op::DecorationGroup => {
                    groups.insert(inst.result()?, Vec::new());
                }
                Op::GroupDecorate | Op::GroupMemberDecorate => {}
                _ => return Err(inst.unsupported_instruction()),
            }
        }
        for (group, list) in groups.iter_mut() {
            if let Some(d) = decos.ids.remove(group) {
                *list = d;
            }
        }
        for inst in annotations {
            match inst.opcode {
                Op::GroupDecorate => {
                    let group = groups
                        .get(&inst.id(0)?)
                        .ok_or_else(|| inst.invalid("not a decoration group"))?;
                    for i in 1..inst.operands.len() {
                        let target = inst.id(i)?;
                        decos
                            .ids
                            .entry(target)
                            .or_default()
                            .extend(group.iter().cloned());
                    }
                }
                Op::GroupMemberDecorate => {
                    let group = groups
                        .get(&inst.id(0)?)
                        .ok_or_else(|| inst.invalid("not a decoration group"))?;
                    let mut i = 1;
                    while i + 1 < inst.operands.len() {
                        let target = inst.id(i)?;
                        let member = inst.literal(i + 1)?;
                        decos
                            .members
                            .entry((target, member))
                            .or_default()
                            .extend(group.iter().cloned());
                        i += 2;
                    }
                }
                _ => {}
            }
        }
        Ok(decos)
    }

    /// All decorations of an id.
    pub fn of(&self, id: Id) -> &[Deco] {
        self.ids.get(&id).map(Vec::as_slice).unwrap_or(&[])
    }

    /// All decorations of a structure member.
    pub fn of_member(&self, id: Id, member: u32) -> &[Deco] {
        self.members
            .get(&(id, member))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// The first decoration of a kind on an id.
    pub fn get(&self, id: Id, kind: Decoration) -> Option<&Deco> {
        self.of(id).iter().find(|d| d.kind == kind)
    }

    /// True if the id carries the decoration.
    pub fn has(&self, id: Id, kind: Decoration) -> bool {
        self.get(id, kind).is_some()
    }

    /// The literal of a decoration on an id (`Location`, `Binding`, ...).
    pub fn literal(&self, id: Id, kind: Decoration) -> Option<u32> {
        self.get(id, kind).and_then(Deco::literal)
    }

    /// The first decoration of a kind on a member.
    pub fn member(&self, id: Id, member: u32, kind: Decoration) -> Option<&Deco> {
        self.of_member(id, member).iter().find(|d| d.kind == kind)
    }

    /// The literal of a member decoration (`Offset`, `MatrixStride`, ...).
    pub fn member_literal(&self, id: Id, member: u32, kind: Decoration) -> Option<u32> {
        self.member(id, member, kind).and_then(Deco::literal)
    }

    /// The built-in an id is decorated with.
    pub fn builtin(&self, id: Id) -> Option<BuiltIn> {
        builtin_of(self.get(id, Decoration::BuiltIn)?)
    }

    /// The built-in a member is decorated with.
    pub fn member_builtin(&self, id: Id, member: u32) -> Option<BuiltIn> {
        builtin_of(self.member(id, member, Decoration::BuiltIn)?)
    }
}

fn builtin_of(d: &Deco) -> Option<BuiltIn> {
    match d.args.first()? {
        Operand::BuiltIn(b) => Some(*b),
        _ => None,
    }
}

fn decoration(inst: &Inst, at: usize) -> Result<Deco, SpirvError> {
    let kind = match inst.operands.get(at) {
        Some(Operand::Decoration(d)) => *d,
        _ => return Err(inst.invalid(format!("operand {at} is not a decoration"))),
    };
    match support(kind) {
        Support::Used | Support::Ignored => Ok(Deco {
            kind,
            args: inst.operands[at + 1..].to_vec(),
        }),
        Support::Unsupported => Err(SpirvError::UnsupportedDecoration {
            decoration: format!("{kind:?}"),
            at: inst.location(),
        }),
    }
}
