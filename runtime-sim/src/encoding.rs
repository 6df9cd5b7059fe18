//! The G13 encoding tables: the shared instruction description's (`agxc_g13_isa::encoding`,
//! one entry per instruction form with its constant bits and named fields, as the ISA
//! document's bit diagrams draw them). This is the first step of decoding: [`decode_raw`] finds
//! the entry matching the bytes at a pc; the typed decoder (`crate::decode`) then reads operand
//! fields out of the [`RawInst`] by name.

pub use agxc_g13_isa::encoding::{
    encoding_of, encodings, Encoding, FieldWriter, Length, RawDecodeError, RawInst, Seg,
};
pub use agxc_g13_isa::Opcode;

use crate::error::DecodeErrorKind;

/// Decodes the instruction at the start of `code` into its table entry and bits.
///
/// Errors: no entry matches (`UnknownEncoding`), or the matching entry needs more bytes than
/// remain (`Truncated`).
pub fn decode_raw(code: &[u8]) -> Result<RawInst, DecodeErrorKind> {
    agxc_g13_isa::encoding::decode_raw(code).map_err(|e| match e {
        RawDecodeError::Truncated { needed, available } => {
            DecodeErrorKind::Truncated { needed, available }
        }
        RawDecodeError::UnknownEncoding { first_bytes } => {
            DecodeErrorKind::UnknownEncoding { first_bytes }
        }
    })
}
