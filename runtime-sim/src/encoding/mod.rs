//! The G13 encoding tables: one table entry per instruction form, listing its constant bits and
//! its named bit fields exactly as the ISA document's bit diagrams draw them
//! (`seeds/001_9be1231add6061e8.txt`, section "Instructions").
//!
//! Place in the pipeline: this is the first step of decoding. [`decode_raw`] finds the entry whose
//! constant bits match the bytes at a pc, works out the instruction length from the entry's length
//! rule (the `L` bit), and returns a [`RawInst`]: the entry plus the instruction's bits, with the
//! bytes a short form omits read as zero ("any bits within those bytes should be read as zero").
//! The typed decoder (`crate::decode`) reads operand fields out of a [`RawInst`] by name, the
//! disassembler prints the typed form, and the test-only assembler sets fields by name: the table
//! is the single description of every encoding.
//!
//! Field names follow the document: `D`/`Dt`/`Dx` for a destination's value, type/flags and
//! extension bits, `A`/`At`/`Am`/`Ax` for a source's value, type, float modifier and extension, and
//! so on. Where the document writes a value as a concatenation (`Dx:D`) the typed decoder joins the
//! fields (`RawInst::join`).

mod table_alu;
mod table_atomic;
mod table_control;
mod table_memory;

use std::fmt;

use crate::error::DecodeErrorKind;

/// Every instruction form the simulator knows, one per table entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)] // the variants are the document's instruction names
pub enum Opcode {
    MovImm16,
    MovImm32,
    GetSr,
    Iadd,
    Imadd,
    Convert,
    Bitrev,
    Popcount,
    Ffs,
    Bfi,
    Bfeil,
    Extr,
    Shlhi,
    Shrhi,
    Asr,
    Asrh,
    Bitop,
    Fmadd,
    Fmadd16,
    Fadd,
    Fadd16,
    Fmul,
    Fmul16,
    Floor,
    Ceil,
    Trunc,
    Rint,
    Rcp,
    Rsqrt,
    RsqrtSpecial,
    SinPt1,
    SinPt2,
    Log2,
    Exp2,
    Dfdx,
    Dfdy,
    Ret,
    Stop,
    Trap,
    CallReg,
    CallImm,
    JmpIncomplete,
    JmpExecAny,
    JmpExecNone,
    PopExec,
    IfIcmp,
    IfFcmp,
    WhileIcmp,
    WhileFcmp,
    ElseIcmp,
    ElseFcmp,
    Icmpsel,
    Fcmpsel,
    IcmpBallot,
    IcmpQuadBallot,
    FcmpBallot,
    FcmpQuadBallot,
    SimdShuffle,
    SimdShuffleDown,
    Wait,
    LdTile,
    StTile,
    LdVar,
    UniformStore,
    DeviceLoad,
    DeviceStore,
    StackStore,
    StackLoad,
    StackGetPtr,
    StackAdjust,
    ThreadgroupLoad,
    ThreadgroupStore,
    TextureSample,
    TextureLoad,
    ImageWrite,
    ThreadgroupBarrier,
    SampleMask,
    Atomic,
    LocalAtomic,
}

impl Opcode {
    /// The document's name for the instruction (the disassembler's mnemonic, except for the
    /// float operations, which it suffixes with their precision).
    pub fn name(self) -> &'static str {
        use Opcode::*;
        match self {
            MovImm16 | MovImm32 => "mov_imm",
            GetSr => "get_sr",
            Iadd => "iadd",
            Imadd => "imadd",
            Convert => "convert",
            Bitrev => "bitrev",
            Popcount => "popcount",
            Ffs => "ffs",
            Bfi => "bfi",
            Bfeil => "bfeil",
            Extr => "extr",
            Shlhi => "shlhi",
            Shrhi => "shrhi",
            Asr => "asr",
            Asrh => "asrh",
            Bitop => "bitop",
            Fmadd => "fmadd32",
            Fmadd16 => "fmadd16",
            Fadd => "fadd32",
            Fadd16 => "fadd16",
            Fmul => "fmul32",
            Fmul16 => "fmul16",
            Floor => "floor",
            Ceil => "ceil",
            Trunc => "trunc",
            Rint => "rint",
            Rcp => "rcp",
            Rsqrt => "rsqrt",
            RsqrtSpecial => "rsqrt_special",
            SinPt1 => "sin_pt_1",
            SinPt2 => "sin_pt_2",
            Log2 => "log2",
            Exp2 => "exp2",
            Dfdx => "dfdx",
            Dfdy => "dfdy",
            Ret => "ret",
            Stop => "stop",
            Trap => "trap",
            CallReg | CallImm => "call",
            JmpIncomplete => "jmp_incomplete",
            JmpExecAny => "jmp_exec_any",
            JmpExecNone => "jmp_exec_none",
            PopExec => "pop_exec",
            IfIcmp => "if_icmp",
            IfFcmp => "if_fcmp",
            WhileIcmp => "while_icmp",
            WhileFcmp => "while_fcmp",
            ElseIcmp => "else_icmp",
            ElseFcmp => "else_fcmp",
            Icmpsel => "icmpsel",
            Fcmpsel => "fcmpsel",
            IcmpBallot => "icmp_ballot",
            IcmpQuadBallot => "icmp_quad_ballot",
            FcmpBallot => "fcmp_ballot",
            FcmpQuadBallot => "fcmp_quad_ballot",
            SimdShuffle => "simd_shuffle",
            SimdShuffleDown => "simd_shuffle_down",
            Wait => "wait",
            LdTile => "ld_tile",
            StTile => "st_tile",
            LdVar => "ld_var",
            UniformStore => "uniform_store",
            DeviceLoad => "device_load",
            DeviceStore => "device_store",
            StackStore => "stack_store",
            StackLoad => "stack_load",
            StackGetPtr => "stack_get_ptr",
            StackAdjust => "stack_adjust",
            ThreadgroupLoad => "threadgroup_load",
            ThreadgroupStore => "threadgroup_store",
            TextureSample => "texture_sample",
            TextureLoad => "texture_load",
            ImageWrite => "image_write",
            ThreadgroupBarrier => "threadgroup_barrier",
            SampleMask => "sample_mask",
            Atomic => "atomic",
            LocalAtomic => "local_atomic",
        }
    }
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

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

/// A constant segment (used by the table files).
pub(crate) const fn c(hi: u8, lo: u8, value: u64) -> Seg {
    Seg::Const { hi, lo, value }
}

/// A field segment (used by the table files).
pub(crate) const fn f(name: &'static str, hi: u8, lo: u8) -> Seg {
    Seg::Field { name, hi, lo }
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

/// Every entry, in match priority order. Only one entry matches any bit pattern, except where a
/// later entry is documented as shadowed by an earlier, more specific one (`uniform_store` before
/// `device_store`; see `table_memory`).
pub fn encodings() -> impl Iterator<Item = &'static Encoding> {
    table_control::ENCODINGS
        .iter()
        .chain(table_alu::ENCODINGS.iter())
        .chain(table_memory::ENCODINGS.iter())
        .chain(table_atomic::ENCODINGS.iter())
}

/// The entry for `opcode`.
pub fn encoding_of(opcode: Opcode) -> &'static Encoding {
    encodings()
        .find(|e| e.opcode == opcode)
        .expect("invariant: every Opcode has exactly one table entry")
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
        self.encoding.segs.iter().find_map(|seg| match *seg {
            Seg::Field { name: n, hi, lo } if n == name => Some(extract(self.bits, hi, lo)),
            _ => None,
        })
    }

    /// The value of a field the form is known to have (the typed decoder's accessor).
    pub(crate) fn get(&self, name: &str) -> u32 {
        self.field(name)
            .unwrap_or_else(|| panic!("invariant: {} has a field {name}", self.encoding.opcode))
    }

    /// The concatenation of fields, most significant first, as the document's `Dx:D`.
    pub(crate) fn join(&self, names: &[&str]) -> u32 {
        names.iter().fold(0u32, |acc, name| {
            let width = self.width_of(name);
            (acc << width) | self.get(name)
        })
    }

    fn width_of(&self, name: &str) -> u32 {
        self.encoding
            .segs
            .iter()
            .find_map(|seg| match *seg {
                Seg::Field { name: n, .. } if n == name => Some(u32::from(seg.width())),
                _ => None,
            })
            .unwrap_or_else(|| panic!("invariant: {} has a field {name}", self.encoding.opcode))
    }

    /// Every named field with its value, in diagram order.
    pub fn fields(&self) -> Vec<(&'static str, u32)> {
        self.encoding
            .segs
            .iter()
            .filter_map(|seg| match *seg {
                Seg::Field { name, hi, lo } => Some((name, extract(self.bits, hi, lo))),
                Seg::Const { .. } => None,
            })
            .collect()
    }
}

/// Bits `hi..=lo` of `bits`.
pub(crate) fn extract(bits: u128, hi: u8, lo: u8) -> u32 {
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

/// Decodes the instruction at the start of `code` into its table entry and bits.
///
/// Errors: no entry matches (`UnknownEncoding`), or the matching entry needs more bytes than
/// remain (`Truncated`).
pub fn decode_raw(code: &[u8]) -> Result<RawInst, DecodeErrorKind> {
    if code.len() < 2 {
        return Err(DecodeErrorKind::Truncated {
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
            return Err(DecodeErrorKind::Truncated {
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
    Err(DecodeErrorKind::UnknownEncoding {
        first_bytes: (window & 0xffff_ffff) as u32,
    })
}
