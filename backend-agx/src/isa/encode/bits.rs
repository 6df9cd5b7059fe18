//! The bit builder every encoding function writes into: the fields of one form of the shared
//! G13 instruction description (`agxc_g13_isa::encoding`) set by name, its constant bits, field
//! positions and length rule coming from the same entry the simulator decodes with.

use agxc_g13_isa::encoding::FieldWriter;
use agxc_g13_isa::Opcode;

use super::Encoded;

/// An instruction of one described form under construction.
#[derive(Debug, Clone, Copy)]
pub(super) struct Bits(FieldWriter);

impl Bits {
    /// Starts an instruction of form `opcode`: its constant bits set, every field 0.
    pub(super) fn new(opcode: Opcode) -> Bits {
        Bits(FieldWriter::new(opcode))
    }

    /// Sets field `name` of the form to `value`. Callers check operand ranges first and set
    /// only the form's fields, so a missing field or a value wider than its field is an encoder
    /// bug.
    pub(super) fn set(&mut self, name: &str, value: u32) {
        self.0.set(name, value);
    }

    /// Sets a one-bit field.
    pub(super) fn set_bit(&mut self, name: &str, value: bool) {
        self.0.set_bit(name, value);
    }

    /// Finishes the instruction with the form's length rule: with an `L` bit, the short form
    /// when every bit past it is zero, else the long form with `L` set.
    pub(super) fn finish(self) -> Encoded {
        let (bits, len) = self.0.finish();
        let mut bytes = [0u8; 12];
        bytes.copy_from_slice(&bits.to_le_bytes()[..12]);
        Encoded { bytes, len }
    }
}
