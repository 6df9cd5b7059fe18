//! Operand kinds: for the instruction forms whose operands are all ALU destinations and ALU
//! sources, the list of those operands in assembly order, with the fields each one occupies.
//!
//! A form listed here needs no code of its own in either consumer apart from what it *does*:
//! the backend holds it as one generic instruction (`Instr::Alu`), and encodes, prints, parses,
//! maps and scans its registers from this list; the simulator decodes, prints and scans it from
//! this list too and runs it through one per-lane semantics function keyed by [`Opcode`].
//! Adding such an instruction is therefore: an [`Opcode`] variant with its name, its encoding
//! entry, its timing row and its operand list here (this crate), its semantics (the
//! simulator's `exec/table.rs`), and its selection (the backend's instruction selection).
//!
//! The forms with operands of other kinds (float sources with modifiers, sign-extension and
//! saturation flags, compare conditions, memory, texture and control operands) keep their typed
//! forms on both sides; a kind is added here when a form needing it moves to the generic path.
//!
//! Operand value rules (how `X`, `Xt`, `Xx` encode a register, uniform or immediate) are the
//! document's "Operands" section, implemented independently by the backend's encoder and the
//! simulator's decoder: the hand-derived encodings both are tested against check that they
//! agree with the document, not merely with each other.

use crate::Opcode;

/// One operand of a form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operand {
    /// The ALU destination `ALUDst(Dx:D, Dt)`: fields `D`, `Dt`, `Dx`; registers of at most
    /// `max_bits` bits.
    Dst {
        /// The widest register allowed (16, 32 or 64).
        max_bits: u32,
    },
    /// The integer ALU source `ALUSrc(Xx:X, Xt)`: registers and uniforms of at most
    /// `max_bits` bits, or an 8-bit immediate.
    Src {
        /// The value field (`A`, `B`, `C`), also the operand's name in messages.
        value: &'static str,
        /// The type field (`At`).
        ty: &'static str,
        /// The extension field (`Ax`), the value's high bits.
        ext: &'static str,
        /// The widest register or uniform allowed (16, 32 or 64).
        max_bits: u32,
    },
}

/// The destination of at most 32 bits, and one source `A` of at most 32 bits: the form of
/// `bitrev`, `popcount` and `ffs` (document, "Bit Manipulation Instructions": `D = ALUDst(Dx:D,
/// Dt)`, `A = ALUSrc(Ax:A, At)`).
pub(crate) const DST_A: &[Operand] = &[
    Operand::Dst { max_bits: 32 },
    Operand::Src {
        value: "A",
        ty: "At",
        ext: "Ax",
        max_bits: 32,
    },
];

/// The operands of `op` in assembly order (destination first), if every one of them is of a
/// kind this module describes; `None` for the forms that keep typed operands.
pub const fn operands(op: Opcode) -> Option<&'static [Operand]> {
    op.operands()
}

/// The most sources a form of the generic path has (the size of the instruction types' source
/// arrays).
pub const MAX_SRCS: usize = 3;

/// The number of sources of a generic form (`0` for the others).
pub fn src_count(op: Opcode) -> usize {
    match operands(op) {
        Some(list) => list
            .iter()
            .filter(|o| matches!(o, Operand::Src { .. }))
            .count(),
        None => 0,
    }
}

/// Every form of the generic path.
pub fn generic_forms() -> impl Iterator<Item = Opcode> {
    crate::encoding::encodings()
        .map(|e| e.opcode)
        .filter(|&op| operands(op).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::{encoding_of, Seg};

    fn has_field(op: Opcode, name: &str) -> bool {
        encoding_of(op)
            .segs
            .iter()
            .any(|s| matches!(s, Seg::Field { name: n, .. } if *n == name))
    }

    /// Every operand names fields its form's encoding entry has, the destination comes first
    /// and only once, and no form has more sources than the instruction types hold: the
    /// consumers read fields by these names without checking.
    #[test]
    fn operand_lists_name_fields_of_their_forms() {
        let mut seen = 0;
        for op in generic_forms() {
            seen += 1;
            let list = operands(op).unwrap();
            assert!(
                matches!(list[0], Operand::Dst { .. }),
                "{op}: destination first"
            );
            assert_eq!(
                list.iter()
                    .filter(|o| matches!(o, Operand::Dst { .. }))
                    .count(),
                1,
                "{op}"
            );
            assert!(src_count(op) <= MAX_SRCS, "{op}");
            for o in list {
                let fields: Vec<String> = match *o {
                    Operand::Dst { .. } => vec!["D".into(), "Dt".into(), "Dx".into()],
                    Operand::Src { value, ty, ext, .. } => {
                        vec![value.into(), ty.into(), ext.into()]
                    }
                };
                for f in fields {
                    assert!(has_field(op, &f), "{op}: no field {f}");
                }
            }
        }
        assert_eq!(seen, 3);
    }
}
