//! The bit builder every encoding function writes into: named bit ranges set one at a time
//! (`set_field(16..22, a)`), and the short/long form choice of the document's `L` bit.

use std::ops::Range;

use super::Encoded;

/// How long an instruction form is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Length {
    /// Always this many bytes.
    Fixed(u8),
    /// `short` bytes with `L = 0`, `long` bytes with `L = 1` (document, "Instructions": the
    /// short form omits the last two or four bytes, which then read as zero).
    LongBit {
        /// Position of `L`.
        bit: u32,
        /// Length with `L = 0`.
        short: u8,
        /// Length with `L = 1`.
        long: u8,
    },
}

/// The bits of one instruction under construction, little-endian from bit 0 of the first byte.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Bits(u128);

impl Bits {
    /// Starts an instruction whose constant opcode bits are `opcode`.
    pub(super) fn new(opcode: u64) -> Bits {
        Bits(u128::from(opcode))
    }

    /// Sets bits `range` (half-open, `lo..hi + 1` of the document's `hi..lo`) to `value`.
    ///
    /// Callers check operand ranges first and return an error for values that do not fit, so
    /// a value wider than its field is an encoder bug.
    pub(super) fn set_field(&mut self, range: Range<u32>, value: u32) {
        let width = range.end - range.start;
        debug_assert!(
            width <= 32 && range.end <= 96,
            "invariant: fields lie in 96 bits"
        );
        debug_assert!(
            u64::from(value) < 1u64 << width,
            "invariant: field {range:?} value {value:#x} checked against its width"
        );
        let mask = ((1u128 << width) - 1) << range.start;
        self.0 = (self.0 & !mask) | ((u128::from(value) << range.start) & mask);
    }

    /// Sets one bit.
    pub(super) fn set_bit(&mut self, bit: u32, value: bool) {
        self.set_field(bit..bit + 1, u32::from(value));
    }

    /// Finishes the instruction: with an `L` bit, the short form when every bit past it is
    /// zero, else the long form with `L` set.
    pub(super) fn finish(mut self, length: Length) -> Encoded {
        let len = match length {
            Length::Fixed(n) => {
                debug_assert!(
                    self.0 >> (u32::from(n) * 8) == 0,
                    "invariant: fixed-length form writes no bit past its length"
                );
                n
            }
            Length::LongBit { bit, short, long } => {
                if self.0 >> (u32::from(short) * 8) == 0 {
                    short
                } else {
                    self.0 |= 1 << bit;
                    long
                }
            }
        };
        let mut bytes = [0u8; 12];
        bytes.copy_from_slice(&self.0.to_le_bytes()[..12]);
        Encoded { bytes, len }
    }
}
