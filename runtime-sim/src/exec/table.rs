//! Semantics of the instructions on the description's generic path (`agxc_g13_isa::operands`):
//! one function of a lane's 32-bit source values per form. The reference executor reads the
//! sources and writes the destination for them (16-bit sources zero-extended, a 16-bit
//! destination keeps the low half, as every 32-bit integer ALU operation does), and the fast
//! engine calls the same functions, so the two cannot disagree on these forms.
//!
//! A form added to the generic path gets its arm here and nowhere else in the simulator.

use crate::encoding::Opcode;

/// One lane's result of generic form `op` from its sources' values (in operand order; the
/// unused entries are 0). `None` if `op` is not on the generic path.
pub(crate) fn eval(op: Opcode) -> Option<fn(&[u32; 3]) -> u32> {
    Some(match op {
        Opcode::Bitrev => |s| s[0].reverse_bits(),
        Opcode::Popcount => |s| s[0].count_ones(),
        // The index of the most significant set bit, -1 if none. The document's pseudocode
        // scans from bit 31 down but, as printed, lacks the loop's `break` and decrement, which
        // would make it return the lowest set bit (or never end); applegpu's `applegpu.py`
        // (`FindFirstSetInstructionDesc`, "find leading set-bit") has both.
        Opcode::Ffs => |s| {
            if s[0] == 0 {
                u32::MAX
            } else {
                31 - s[0].leading_zeros()
            }
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::eval;
    use agxc_g13_isa::operands::generic_forms;

    /// Every form of the generic path has its semantics here (the decoder accepts every such
    /// form, so a missing arm would be a decoded instruction the executor cannot run).
    #[test]
    fn every_generic_form_has_semantics() {
        for op in generic_forms() {
            assert!(eval(op).is_some(), "{op} has no semantics");
        }
    }
}
