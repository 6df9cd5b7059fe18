//! The G13 encoding tables: one table entry per instruction form, listing its constant bits and
//! its named bit fields exactly as the ISA document's bit diagrams draw them
//! (`seeds/001_9be1231add6061e8.txt`, section "Instructions").
//!
//! Both directions read the same entry:
//! - decoding: [`decode_raw`] finds the entry whose constant bits match the bytes at a pc, works
//!   out the instruction length from the entry's length rule (the `L` bit), and returns a
//!   [`RawInst`]: the entry plus the instruction's bits, with the bytes a short form omits read
//!   as zero ("any bits within those bytes should be read as zero"). The simulator's typed
//!   decoder reads operand fields out of a [`RawInst`] by name, and its disassembler prints the
//!   typed form;
//! - encoding: a [`FieldWriter`] starts from an entry's constant bits and sets fields by name;
//!   the backend's encoder and the simulator's test assembler build instructions with it.
//!
//! Field names follow the document: `D`/`Dt`/`Dx` for a destination's value, type/flags and
//! extension bits, `A`/`At`/`Am`/`Ax` for a source's value, type, float modifier and extension, and
//! so on. Where the document writes a value as a concatenation (`Dx:D`) the typed decoder joins the
//! fields (`RawInst::join`).

// The families' bit diagrams; `#[macro_use]` so that the instruction list (`crate::opcode`)
// can instantiate a family's diagram with a member's sub-operation code.
#[macro_use]
pub(crate) mod table_alu;
pub(crate) mod table_atomic;
#[macro_use]
pub(crate) mod table_control;
#[macro_use]
pub(crate) mod table_memory;

pub use crate::Opcode;

/// One piece of a bit diagram: a constant or a named field, as an inclusive bit range `hi..=lo`
/// (the document numbers bits from 0 at the least significant bit of the first byte).
#[derive(Debug, Clone, Copy)]
pub enum Seg {
    /// Bits that must hold `value` for the entry to match.
    Const {
        /// Most significant bit.
        hi: u8,
        /// Least significant bit.
        lo: u8,
        /// Required value.
        value: u64,
    },
    /// A named field.
    Field {
        /// The document's field name.
        name: &'static str,
        /// Most significant bit.
        hi: u8,
        /// Least significant bit.
        lo: u8,
        /// `name` packed into a word ([`name_key`]), for the lookups by name.
        key: u64,
    },
}

impl Seg {
    /// Width in bits.
    pub const fn width(&self) -> u8 {
        match *self {
            Seg::Const { hi, lo, .. } | Seg::Field { hi, lo, .. } => hi - lo + 1,
        }
    }
}

/// A field name packed into a word: its length in the top byte, its first seven bytes below.
///
/// The encoders set fields by name, a dozen per instruction, and a form has up to 18 fields:
/// comparing the names as strings (`memcmp` for every field of the asked name's length) made
/// encoding 3-4% of a typical compile (issue 19). Each field keeps its name's key, so a lookup
/// packs the asked name once and compares one word per field; names of up to seven bytes (all
/// but a few) are equal exactly when their keys are.
pub const fn name_key(name: &str) -> u64 {
    let bytes = name.as_bytes();
    let mut key = (bytes.len() as u64) << 56;
    let mut i = 0;
    while i < bytes.len() && i < 7 {
        key |= (bytes[i] as u64) << (8 * i);
        i += 1;
    }
    key
}

/// The bit range `(hi, lo)` of the field called `name` among `segs`, if there is one.
#[inline]
fn find_field(segs: &[Seg], name: &str) -> Option<(u8, u8)> {
    let key = name_key(name);
    segs.iter().find_map(|seg| match *seg {
        Seg::Field {
            key: k,
            name: n,
            hi,
            lo,
        } if k == key && (name.len() <= 7 || n == name) => Some((hi, lo)),
        _ => None,
    })
}

/// A constant segment (used by the table files).
pub(crate) const fn c(hi: u8, lo: u8, value: u64) -> Seg {
    Seg::Const { hi, lo, value }
}

/// A field segment (used by the table files).
pub(crate) const fn f(name: &'static str, hi: u8, lo: u8) -> Seg {
    Seg::Field {
        name,
        hi,
        lo,
        key: name_key(name),
    }
}

/// How long an instruction is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Length {
    /// Always this many bytes.
    Fixed(u8),
    /// `short` bytes when bit `bit` (the document's `L`) is 0, `long` bytes when it is 1.
    LongBit {
        /// Position of `L`; always inside the short form.
        bit: u8,
        /// Length with `L = 0`.
        short: u8,
        /// Length with `L = 1`.
        long: u8,
    },
}

impl Length {
    /// The most bytes an instruction of this form can take.
    pub const fn max(self) -> u8 {
        match self {
            Length::Fixed(n) => n,
            Length::LongBit { long, .. } => long,
        }
    }
}

/// The length rules of the instruction list: fixed lengths, and the `L` bit's (bit 15, bit 47
/// for the memory forms whose `L` sits in their third word) short and long lengths.
pub(crate) const FIXED2: Length = Length::Fixed(2);
pub(crate) const FIXED4: Length = Length::Fixed(4);
pub(crate) const FIXED6: Length = Length::Fixed(6);
pub(crate) const FIXED8: Length = Length::Fixed(8);
pub(crate) const FIXED10: Length = Length::Fixed(10);
pub(crate) const L4_6: Length = long_bit(15, 4, 6);
pub(crate) const L4_8: Length = long_bit(15, 4, 8);
pub(crate) const L6_8: Length = long_bit(15, 6, 8);
pub(crate) const L8_10: Length = long_bit(15, 8, 10);
pub(crate) const L8_12: Length = long_bit(15, 8, 12);
pub(crate) const L47_6_8: Length = long_bit(47, 6, 8);

const fn long_bit(bit: u8, short: u8, long: u8) -> Length {
    Length::LongBit { bit, short, long }
}

/// One table entry: an instruction form.
#[derive(Debug)]
pub struct Encoding {
    /// Which instruction.
    pub opcode: Opcode,
    /// Its length rule.
    pub length: Length,
    /// The bit diagram.
    pub segs: &'static [Seg],
    /// Mask of the constant bits (all constants lie in the first 64 bits).
    pub mask: u64,
    /// Required values of the constant bits.
    pub value: u64,
}

/// Builds an entry, folding its constant segments into `mask`/`value` at compile time.
pub(crate) const fn enc(opcode: Opcode, length: Length, segs: &'static [Seg]) -> Encoding {
    let mut mask = 0u64;
    let mut value = 0u64;
    let mut i = 0;
    while i < segs.len() {
        if let Seg::Const { hi, lo, value: v } = segs[i] {
            assert!(
                hi < 64 && hi >= lo,
                "constant bits must lie in the first 64 bits"
            );
            let width = hi - lo + 1;
            let m = if width == 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            assert!(v <= m, "constant wider than its segment");
            mask |= m << lo;
            value |= v << lo;
        }
        i += 1;
    }
    Encoding {
        opcode,
        length,
        segs,
        mask,
        value,
    }
}

/// Every entry, in match priority order (the instruction list's). Only one entry matches any
/// bit pattern, except where a later entry is documented as shadowed by an earlier, more
/// specific one (`uniform_store` before `device_store`; see `table_memory`).
pub fn encodings() -> impl Iterator<Item = &'static Encoding> {
    crate::opcode::ENCODINGS.iter()
}

/// The entry for `opcode`.
pub fn encoding_of(opcode: Opcode) -> &'static Encoding {
    &crate::opcode::ENCODINGS[opcode as usize]
}

/// A matched instruction: its table entry, length and bits (short-form omitted bytes read as 0).
#[derive(Debug, Clone, Copy)]
pub struct RawInst {
    /// The matched entry.
    pub encoding: &'static Encoding,
    /// Length in bytes.
    pub len: u8,
    /// The instruction's bits, little-endian, zero past `len`.
    pub bits: u128,
}

impl RawInst {
    /// The value of the named field, or `None` if this form has no such field.
    pub fn field(&self, name: &str) -> Option<u32> {
        find_field(self.encoding.segs, name).map(|(hi, lo)| extract(self.bits, hi, lo))
    }

    /// The value of a field the form is known to have (the typed decoder's accessor; the
    /// decoder asks only for fields of the entry it matched, so a missing one is a bug).
    pub fn get(&self, name: &str) -> u32 {
        self.field(name)
            .unwrap_or_else(|| panic!("invariant: {} has a field {name}", self.encoding.opcode))
    }

    /// The concatenation of fields, most significant first, as the document's `Dx:D`.
    pub fn join(&self, names: &[&str]) -> u32 {
        names.iter().fold(0u32, |acc, name| {
            let width = self.width_of(name);
            (acc << width) | self.get(name)
        })
    }

    fn width_of(&self, name: &str) -> u32 {
        find_field(self.encoding.segs, name)
            .map(|(hi, lo)| u32::from(hi - lo + 1))
            .unwrap_or_else(|| panic!("invariant: {} has a field {name}", self.encoding.opcode))
    }

    /// Every named field with its value, in diagram order.
    pub fn fields(&self) -> Vec<(&'static str, u32)> {
        self.encoding
            .segs
            .iter()
            .filter_map(|seg| match *seg {
                Seg::Field { name, hi, lo, .. } => Some((name, extract(self.bits, hi, lo))),
                Seg::Const { .. } => None,
            })
            .collect()
    }
}

/// Bits `hi..=lo` of `bits`.
pub fn extract(bits: u128, hi: u8, lo: u8) -> u32 {
    let width = u32::from(hi - lo + 1);
    ((bits >> lo) & ((1u128 << width) - 1)) as u32
}

/// Reads up to 16 bytes at the start of `code` (more than the longest, 12-byte, instruction) as a
/// little-endian integer, zero past the end.
fn read_window(code: &[u8]) -> (u128, usize) {
    let n = code.len().min(16);
    let mut buf = [0u8; 16];
    buf[..n].copy_from_slice(&code[..n]);
    (u128::from_le_bytes(buf), n)
}

/// Why [`decode_raw`] found no instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RawDecodeError {
    /// The matching entry needs more bytes than remain.
    Truncated {
        /// Bytes the instruction needs.
        needed: usize,
        /// Bytes left in the code.
        available: usize,
    },
    /// No entry matches.
    UnknownEncoding {
        /// The first four bytes as a little-endian word.
        first_bytes: u32,
    },
}

/// Decodes the instruction at the start of `code` into its table entry and bits.
///
/// Errors: no entry matches (`UnknownEncoding`), or the matching entry needs more bytes than
/// remain (`Truncated`).
pub fn decode_raw(code: &[u8]) -> Result<RawInst, RawDecodeError> {
    if code.len() < 2 {
        return Err(RawDecodeError::Truncated {
            needed: 2,
            available: code.len(),
        });
    }
    let (window, available) = read_window(code);
    for encoding in encodings() {
        let len = match encoding.length {
            Length::Fixed(n) => n,
            Length::LongBit { bit, short, long } => {
                if (window >> bit) & 1 == 1 {
                    long
                } else {
                    short
                }
            }
        };
        let len_bits = u32::from(len) * 8;
        let bits = window & ((1u128 << len_bits) - 1);
        if (bits as u64) & encoding.mask != encoding.value {
            continue;
        }
        if usize::from(len) > available {
            return Err(RawDecodeError::Truncated {
                needed: usize::from(len),
                available,
            });
        }
        return Ok(RawInst {
            encoding,
            len,
            bits,
        });
    }
    Err(RawDecodeError::UnknownEncoding {
        first_bytes: (window & 0xffff_ffff) as u32,
    })
}

/// An instruction under construction: an entry's constant bits, then fields set by name.
#[derive(Debug, Clone, Copy)]
pub struct FieldWriter {
    encoding: &'static Encoding,
    bits: u128,
}

impl FieldWriter {
    /// Starts an instruction of form `opcode`: its constant bits set, every field 0.
    pub fn new(opcode: Opcode) -> FieldWriter {
        let encoding = encoding_of(opcode);
        FieldWriter {
            encoding,
            bits: u128::from(encoding.value),
        }
    }

    /// The entry being written.
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// The bit range `(hi, lo)` of field `name`, if the form has it.
    pub fn range_of(&self, name: &str) -> Option<(u8, u8)> {
        find_field(self.encoding.segs, name)
    }

    /// Sets field `name` to `value`.
    ///
    /// Encoders set only fields of the form they build and check operand ranges first, so a
    /// missing field or a value wider than its field is a bug in the caller.
    pub fn set(&mut self, name: &str, value: u32) {
        let (hi, lo) = self
            .range_of(name)
            .unwrap_or_else(|| panic!("invariant: {} has a field {name}", self.encoding.opcode));
        let width = u32::from(hi - lo + 1);
        debug_assert!(
            u64::from(value) < 1u64 << width,
            "invariant: {}.{name} = {value:#x} checked against its width",
            self.encoding.opcode
        );
        let mask = ((1u128 << width) - 1) << lo;
        self.bits = (self.bits & !mask) | ((u128::from(value) << lo) & mask);
    }

    /// Sets a one-bit field.
    pub fn set_bit(&mut self, name: &str, value: bool) {
        self.set(name, u32::from(value));
    }

    /// The bits so far, little-endian from bit 0 of the first byte.
    pub fn bits(&self) -> u128 {
        self.bits
    }

    /// Finishes the instruction: its bits and length. A form with an `L` bit is short when
    /// every bit past the short form is zero (the document: the omitted bytes read as zero), and
    /// long with `L` set otherwise.
    pub fn finish(self) -> (u128, u8) {
        match self.encoding.length {
            Length::Fixed(n) => (self.bits, n),
            Length::LongBit { bit, short, long } => {
                if self.bits >> (u32::from(short) * 8) == 0 {
                    (self.bits, short)
                } else {
                    (self.bits | 1 << bit, long)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
