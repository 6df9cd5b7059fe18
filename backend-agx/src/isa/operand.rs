//! ALU operands: sources ([`Src`], [`FSrc`], [`IntSrc`]), destinations ([`Dst`]), comparison
//! conditions ([`ICond`], [`FCond`], [`Cmp`]), the 8-bit float immediate, jump targets and
//! special registers. Each is generic over the register type `R`, so the same operand serves
//! virtual registers before register allocation and [`crate::isa::PReg`] after.

use std::fmt;

use super::reg::{Hint, UReg};

/// A source operand of an ALU instruction (document, "Operands": `ALUSrc`, `CmpselSrc`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Src<R> {
    /// A general-purpose register with its register-cache hint.
    Reg {
        /// The register; its width (16, 32 or 64 bits) selects the operand size.
        reg: R,
        /// Cache or discard hint.
        hint: Hint,
    },
    /// A 16- or 32-bit uniform register.
    Uniform(UReg),
    /// An 8-bit immediate, zero-extended. In a float source it is the 8-bit float immediate
    /// (see [`float_imm`]).
    Imm(u8),
}

impl<R> Src<R> {
    /// A register source without hint.
    pub fn reg(reg: R) -> Self {
        Src::Reg {
            reg,
            hint: Hint::None,
        }
    }

    /// The register, if the source is one.
    pub fn as_reg(&self) -> Option<&R> {
        match self {
            Src::Reg { reg, .. } => Some(reg),
            _ => None,
        }
    }

    /// The same source with registers mapped by `f`.
    pub fn map<S>(self, f: &mut impl FnMut(R) -> S) -> Src<S> {
        match self {
            Src::Reg { reg, hint } => Src::Reg { reg: f(reg), hint },
            Src::Uniform(u) => Src::Uniform(u),
            Src::Imm(v) => Src::Imm(v),
        }
    }
}

/// A float source: the operand read as a float, then `abs`, then `neg` (document, `FloatSrc`:
/// modifier bit 0 is abs, bit 1 negate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FSrc<R> {
    /// The operand. An [`Src::Imm`] is the 8-bit float immediate.
    pub src: Src<R>,
    /// Absolute value.
    pub abs: bool,
    /// Negate (after `abs`).
    pub neg: bool,
}

impl<R> FSrc<R> {
    /// A source without modifiers.
    pub fn new(src: Src<R>) -> Self {
        FSrc {
            src,
            abs: false,
            neg: false,
        }
    }

    /// A register source without hint or modifiers.
    pub fn reg(reg: R) -> Self {
        FSrc::new(Src::reg(reg))
    }

    /// The float immediate with 8-bit code `code` (see [`float_imm`]).
    pub fn imm(code: u8) -> Self {
        FSrc::new(Src::Imm(code))
    }

    /// The same source, negated (the `neg` modifier toggled).
    pub fn negated(mut self) -> Self {
        self.neg = !self.neg;
        self
    }

    /// The same source with the `abs` modifier set.
    pub fn with_abs(mut self) -> Self {
        self.abs = true;
        self
    }

    /// The same source with registers mapped by `f`.
    pub fn map<S>(self, f: &mut impl FnMut(R) -> S) -> FSrc<S> {
        FSrc {
            src: self.src.map(f),
            abs: self.abs,
            neg: self.neg,
        }
    }
}

/// An integer source of `iadd`/`imadd` with its sign-extension flag (document, `AddSrc`,
/// `MulSrc`: the `s` bit sign-extends a 16- or 32-bit source to the operation's width).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IntSrc<R> {
    /// The operand.
    pub src: Src<R>,
    /// Sign-extend (else zero-extend). Immediates are already zero-extended to 16 bits before
    /// this applies, so they never become negative.
    pub sext: bool,
}

impl<R> IntSrc<R> {
    /// A zero-extended source.
    pub fn zext(src: Src<R>) -> Self {
        IntSrc { src, sext: false }
    }

    /// A sign-extended source.
    pub fn sext(src: Src<R>) -> Self {
        IntSrc { src, sext: true }
    }

    /// The same source with registers mapped by `f`.
    pub fn map<S>(self, f: &mut impl FnMut(R) -> S) -> IntSrc<S> {
        IntSrc {
            src: self.src.map(f),
            sext: self.sext,
        }
    }
}

/// A destination register with its cache hint (document, `ALUDst`: flags bit 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dst<R> {
    /// The register; its width selects the result size.
    pub reg: R,
    /// Keep the result in the register cache.
    pub cache: bool,
}

impl<R> Dst<R> {
    /// A destination without hint.
    pub fn new(reg: R) -> Self {
        Dst { reg, cache: false }
    }

    /// The same destination with registers mapped by `f`.
    pub fn map<S>(self, f: &mut impl FnMut(R) -> S) -> Dst<S> {
        Dst {
            reg: f(self.reg),
            cache: self.cache,
        }
    }
}

/// Decodes the 8-bit float immediate (document, "Helper Pseudocode",
/// `decode_float_immediate`): sign bit 7, 3-bit exponent, 4-bit fraction; exponent 0 encodes
/// `fraction / 64`, otherwise `(16 + fraction) * 2^(exponent - 7)`.
pub fn float_imm_value(code: u8) -> f32 {
    let exponent = i32::from((code >> 4) & 0x7);
    let fraction = f32::from(code & 0xf);
    let magnitude = if exponent == 0 {
        fraction / 64.0
    } else {
        (16.0 + fraction) * 2f32.powi(exponent - 7)
    };
    if code & 0x80 != 0 {
        -magnitude
    } else {
        magnitude
    }
}

/// The 8-bit float immediate code for `x`, if `x` is exactly representable (0, ±1/64 .. ±31,
/// including -0.0, which is code 0x80).
pub fn float_imm(x: f32) -> Option<u8> {
    // Worked out from `x` rather than by decoding all 256 codes: instruction selection asks for
    // every float constant operand, and the search was about 1% of a typical compile. Every code
    // decodes to a different value, so the one candidate, checked by decoding it, is the answer.
    let sign = if x.is_sign_negative() { 0x80 } else { 0 };
    // |x| in 64ths: an integer below 32 * 64 for every representable value (infinity fails the
    // bound, NaN the integer test: its fraction is NaN).
    let n = x.abs() * 64.0;
    if n >= 2048.0 || n.fract() != 0.0 {
        return None;
    }
    let n = n as u32;
    let code = if n < 16 {
        sign | n as u8
    } else {
        // n = (16 + fraction) << (exponent - 1), the leading one at bit exponent + 3.
        let exponent = (31 - n.leading_zeros()) - 3;
        let fraction = (n >> (exponent - 1)) - 16;
        sign | (exponent as u8) << 4 | fraction as u8
    };
    (float_imm_value(code).to_bits() == x.to_bits()).then_some(code)
}

/// An integer comparison (document, `ICondition`: bit 2 of the code compares sign-extended
/// values, bits 1:0 select ==, <, >).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ICond {
    /// Equal (zero-extended), code 0.
    Ueq,
    /// Unsigned less than, code 1.
    Ult,
    /// Unsigned greater than, code 2.
    Ugt,
    /// Equal (sign-extended), code 4.
    Seq,
    /// Signed less than, code 5.
    Slt,
    /// Signed greater than, code 6.
    Sgt,
}

impl ICond {
    /// The 3-bit `cc` code.
    pub const fn code(self) -> u32 {
        match self {
            ICond::Ueq => 0,
            ICond::Ult => 1,
            ICond::Ugt => 2,
            ICond::Seq => 4,
            ICond::Slt => 5,
            ICond::Sgt => 6,
        }
    }

    /// The disassembler's name, inverted (`ccn = 1`) or not: `ueq ult ugt seq slt sgt`,
    /// inverted `une uge ule sne sge sle`.
    pub const fn name(self, invert: bool) -> &'static str {
        match (self, invert) {
            (ICond::Ueq, false) => "ueq",
            (ICond::Ult, false) => "ult",
            (ICond::Ugt, false) => "ugt",
            (ICond::Seq, false) => "seq",
            (ICond::Slt, false) => "slt",
            (ICond::Sgt, false) => "sgt",
            (ICond::Ueq, true) => "une",
            (ICond::Ult, true) => "uge",
            (ICond::Ugt, true) => "ule",
            (ICond::Seq, true) => "sne",
            (ICond::Slt, true) => "sge",
            (ICond::Sgt, true) => "sle",
        }
    }
}

/// A float comparison (document, `FCondition`, with docs/g13.md's correction: code 5 is
/// greater-or-equal and code 6 is less-or-equal; the document has them swapped).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FCond {
    /// Equal, code 0.
    Eq,
    /// Less than, code 1.
    Lt,
    /// Greater than, code 2.
    Gt,
    /// Less than where a NaN operand loses (min-style), code 3.
    LtNanLoses,
    /// Greater than or equal, code 5.
    Ge,
    /// Less than or equal, code 6.
    Le,
    /// Greater than where a NaN operand loses (max-style), code 7.
    GtNanLoses,
}

impl FCond {
    /// The 3-bit `cc` code.
    pub const fn code(self) -> u32 {
        match self {
            FCond::Eq => 0,
            FCond::Lt => 1,
            FCond::Gt => 2,
            FCond::LtNanLoses => 3,
            FCond::Ge => 5,
            FCond::Le => 6,
            FCond::GtNanLoses => 7,
        }
    }

    /// The disassembler's name: `eq lt gt ltn ge le gtn`, prefixed `n` when inverted.
    pub const fn name(self) -> &'static str {
        match self {
            FCond::Eq => "eq",
            FCond::Lt => "lt",
            FCond::Gt => "gt",
            FCond::LtNanLoses => "ltn",
            FCond::Ge => "ge",
            FCond::Le => "le",
            FCond::GtNanLoses => "gtn",
        }
    }
}

/// A comparison with its operands, as the compare-and-select and execution-mask stack
/// instructions take it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cmp<R> {
    /// Integer comparison (`icmpsel`, `if_icmp`, ...): 16- or 32-bit sources.
    Int {
        /// Condition.
        cond: ICond,
        /// Left operand.
        a: Src<R>,
        /// Right operand.
        b: Src<R>,
    },
    /// Float comparison (`fcmpsel`, `if_fcmp`, ...).
    Float {
        /// Condition.
        cond: FCond,
        /// Left operand.
        a: FSrc<R>,
        /// Right operand.
        b: FSrc<R>,
    },
}

impl<R> Cmp<R> {
    /// Whether this is a float comparison.
    pub fn is_float(&self) -> bool {
        matches!(self, Cmp::Float { .. })
    }

    /// The same comparison with registers mapped by `f`.
    pub fn map<S>(self, f: &mut impl FnMut(R) -> S) -> Cmp<S> {
        match self {
            Cmp::Int { cond, a, b } => Cmp::Int {
                cond,
                a: a.map(f),
                b: b.map(f),
            },
            Cmp::Float { cond, a, b } => Cmp::Float {
                cond,
                a: a.map(f),
                b: b.map(f),
            },
        }
    }

    /// The two operands as plain sources.
    pub fn srcs(&self) -> [&Src<R>; 2] {
        match self {
            Cmp::Int { a, b, .. } => [a, b],
            Cmp::Float { a, b, .. } => [&a.src, &b.src],
        }
    }

    /// The two operands as mutable plain sources.
    pub fn srcs_mut(&mut self) -> [&mut Src<R>; 2] {
        match self {
            Cmp::Int { a, b, .. } => [a, b],
            Cmp::Float { a, b, .. } => [&mut a.src, &mut b.src],
        }
    }
}

/// A symbolic code position, bound by [`crate::isa::Assembler::bind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Label(pub u32);

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "L{}", self.0)
    }
}

/// Where a jump or call goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JumpTarget {
    /// A label, resolved by the assembler.
    Label(Label),
    /// A signed byte offset relative to the jump's own address (docs/g13.md,
    /// "Execution-mask stack").
    Offset(i32),
}

/// A special register read by `get_sr`. The document gives no numbering; this is Mesa's
/// (`enum agx_sr`), as the simulator (`agxc-runtime-sim`, `exec::sr`) defines it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)] // the names are Metal's
pub enum SpecialReg {
    ThreadgroupPositionInGridX = 0,
    ThreadgroupPositionInGridY = 1,
    ThreadgroupPositionInGridZ = 2,
    ThreadsPerThreadgroupX = 4,
    ThreadsPerThreadgroupY = 5,
    ThreadsPerThreadgroupZ = 6,
    DispatchThreadsPerThreadgroupX = 8,
    DispatchThreadsPerThreadgroupY = 9,
    DispatchThreadsPerThreadgroupZ = 10,
    CoreIndex = 20,
    VmSlot = 21,
    ThreadPositionInThreadgroupX = 48,
    ThreadPositionInThreadgroupY = 49,
    ThreadPositionInThreadgroupZ = 50,
    ThreadIndexInThreadgroup = 51,
    ThreadIndexInSimdgroup = 52,
    SimdgroupIndexInThreadgroup = 53,
    ActiveThreadIndexInQuad = 56,
    ActiveThreadIndexInSimdgroup = 58,
    CoverageMask = 60,
    Backfacing = 62,
    IsActiveThread = 63,
    ThreadPositionInGridX = 80,
    ThreadPositionInGridY = 81,
    ThreadPositionInGridZ = 82,
    InputSampleMask = 124,
}

impl SpecialReg {
    /// Every special register, in numbering order.
    pub const ALL: [SpecialReg; 26] = {
        use SpecialReg::*;
        [
            ThreadgroupPositionInGridX,
            ThreadgroupPositionInGridY,
            ThreadgroupPositionInGridZ,
            ThreadsPerThreadgroupX,
            ThreadsPerThreadgroupY,
            ThreadsPerThreadgroupZ,
            DispatchThreadsPerThreadgroupX,
            DispatchThreadsPerThreadgroupY,
            DispatchThreadsPerThreadgroupZ,
            CoreIndex,
            VmSlot,
            ThreadPositionInThreadgroupX,
            ThreadPositionInThreadgroupY,
            ThreadPositionInThreadgroupZ,
            ThreadIndexInThreadgroup,
            ThreadIndexInSimdgroup,
            SimdgroupIndexInThreadgroup,
            ActiveThreadIndexInQuad,
            ActiveThreadIndexInSimdgroup,
            CoverageMask,
            Backfacing,
            IsActiveThread,
            ThreadPositionInGridX,
            ThreadPositionInGridY,
            ThreadPositionInGridZ,
            InputSampleMask,
        ]
    };

    /// The 8-bit number (`SRx:SR`).
    pub const fn number(self) -> u32 {
        self as u32
    }

    /// The disassembler's name (`thread_position_in_grid.x`, ...).
    pub const fn name(self) -> &'static str {
        use SpecialReg::*;
        match self {
            ThreadgroupPositionInGridX => "threadgroup_position_in_grid.x",
            ThreadgroupPositionInGridY => "threadgroup_position_in_grid.y",
            ThreadgroupPositionInGridZ => "threadgroup_position_in_grid.z",
            ThreadsPerThreadgroupX => "threads_per_threadgroup.x",
            ThreadsPerThreadgroupY => "threads_per_threadgroup.y",
            ThreadsPerThreadgroupZ => "threads_per_threadgroup.z",
            DispatchThreadsPerThreadgroupX => "dispatch_threads_per_threadgroup.x",
            DispatchThreadsPerThreadgroupY => "dispatch_threads_per_threadgroup.y",
            DispatchThreadsPerThreadgroupZ => "dispatch_threads_per_threadgroup.z",
            CoreIndex => "core_index",
            VmSlot => "vm_slot",
            ThreadPositionInThreadgroupX => "thread_position_in_threadgroup.x",
            ThreadPositionInThreadgroupY => "thread_position_in_threadgroup.y",
            ThreadPositionInThreadgroupZ => "thread_position_in_threadgroup.z",
            ThreadIndexInThreadgroup => "thread_index_in_threadgroup",
            ThreadIndexInSimdgroup => "thread_index_in_simdgroup",
            SimdgroupIndexInThreadgroup => "simdgroup_index_in_threadgroup",
            ActiveThreadIndexInQuad => "active_thread_index_in_quad",
            ActiveThreadIndexInSimdgroup => "active_thread_index_in_simdgroup",
            CoverageMask => "coverage_mask",
            Backfacing => "backfacing",
            IsActiveThread => "is_active_thread",
            ThreadPositionInGridX => "thread_position_in_grid.x",
            ThreadPositionInGridY => "thread_position_in_grid.y",
            ThreadPositionInGridZ => "thread_position_in_grid.z",
            InputSampleMask => "input_sample_mask",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The code search `float_imm` replaced: the first code that decodes to `x`'s bits.
    fn searched(x: f32) -> Option<u8> {
        (0..=u8::MAX).find(|&code| float_imm_value(code).to_bits() == x.to_bits())
    }

    #[test]
    fn float_imm_inverts_every_code_and_agrees_with_a_search() {
        for code in 0..=u8::MAX {
            let x = float_imm_value(code);
            assert_eq!(float_imm(x), Some(code), "{x}");
            // Neighbours one step away in the bits, and nearby scalings, are found by both or neither.
            for y in [
                f32::from_bits(x.to_bits() + 1),
                f32::from_bits(x.to_bits().wrapping_sub(1)),
                x * 3.0,
                x / 3.0,
                x + 0.5,
                x * 64.0,
            ] {
                assert_eq!(float_imm(y), searched(y), "{y}");
            }
        }
        for y in [
            f32::NAN,
            f32::INFINITY,
            -f32::INFINITY,
            32.0,
            1e-40,
            1e30,
            0.3,
        ] {
            assert_eq!(float_imm(y), searched(y), "{y}");
        }
    }
}
