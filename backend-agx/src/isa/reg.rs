//! Registers: physical general-purpose registers ([`PReg`]), uniform registers ([`UReg`]), the
//! register-cache [`Hint`] on a source, and the [`RegUnits`] trait that lets liveness and register
//! allocation size any register operand in 16-bit units.
//!
//! The G13 has up to 128 32-bit general-purpose registers per thread, each also addressable as
//! two 16-bit halves (`rNl`, `rNh`); pairs of consecutive 32-bit registers hold 64-bit values,
//! and memory and texture instructions take runs of up to four (texture gradients: seven)
//! consecutive 16- or 32-bit registers, named by the first
//! (`seeds/001_9be1231add6061e8.txt`, introduction). Every register here is addressed by its
//! first 16-bit half, the unit the encodings count in (`ALUDst`/`ALUSrc` values are half
//! indices), so that an allocator working in 16-bit units can build a [`PReg`] directly; whether
//! the half is suitably aligned is checked when the instruction is encoded.

use std::fmt;

/// How many 16-bit halves a register operand occupies.
///
/// Implemented by [`PReg`]; a virtual register type used before register allocation implements
/// it too, so that [`crate::isa::Instr::uses`] and [`crate::isa::Instr::defs`] can report sizes.
pub trait RegUnits {
    /// Size in 16-bit units (1 for a half, 2 for a 32-bit register, 4 for a 64-bit pair, ...).
    fn units(&self) -> u32;
}

/// The shape of a physical register operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegClass {
    /// One 16-bit half.
    H16,
    /// One 32-bit register (two halves, the first even).
    R32,
    /// A 64-bit pair of consecutive 32-bit registers.
    R64,
    /// `n` consecutive 16-bit halves (memory and texture data).
    Vec16(u8),
    /// `n` consecutive 32-bit registers (memory and texture data, texture coordinates, LOD).
    Vec32(u8),
}

impl RegClass {
    /// Size in 16-bit units.
    pub const fn units(self) -> u32 {
        match self {
            RegClass::H16 => 1,
            RegClass::R32 => 2,
            RegClass::R64 => 4,
            RegClass::Vec16(n) => n as u32,
            RegClass::Vec32(n) => 2 * n as u32,
        }
    }

    /// The operand read as a run of registers: element width in bits and element count
    /// (a 64-bit pair is a run of two 32-bit registers).
    pub const fn run(self) -> (u32, u32) {
        match self {
            RegClass::H16 => (16, 1),
            RegClass::R32 => (32, 1),
            RegClass::R64 => (32, 2),
            RegClass::Vec16(n) => (16, n as u32),
            RegClass::Vec32(n) => (32, n as u32),
        }
    }

    /// A short name for error messages.
    pub const fn name(self) -> &'static str {
        match self {
            RegClass::H16 => "16-bit register",
            RegClass::R32 => "32-bit register",
            RegClass::R64 => "64-bit register pair",
            RegClass::Vec16(_) => "run of 16-bit registers",
            RegClass::Vec32(_) => "run of 32-bit registers",
        }
    }
}

/// A physical general-purpose register operand: its first 16-bit half and its shape.
///
/// `half` counts 16-bit halves: half `2n` is `rNl`, `2n + 1` is `rNh`, and the 32-bit register
/// `rN` starts at half `2n`. Valid halves are 0..=255; a 32-bit or wider operand must start at
/// an even half. Both are checked by the encoder, not here, so that a register allocator can
/// build any value and get an error naming the operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PReg {
    /// First 16-bit half.
    pub half: u16,
    /// Shape.
    pub class: RegClass,
}

impl PReg {
    /// `r0l`, which counts execution-mask stack levels (document, "Conditional Execution").
    pub const R0L: PReg = PReg::half(0);
    /// `r1`, the link register of `call`.
    pub const LINK: PReg = PReg::r32(1);

    /// A register of any shape starting at half `half`.
    pub const fn new(half: u16, class: RegClass) -> PReg {
        PReg { half, class }
    }

    /// The 16-bit half with index `half` (`rNl` is `2N`, `rNh` is `2N + 1`).
    pub const fn half(half: u16) -> PReg {
        PReg {
            half,
            class: RegClass::H16,
        }
    }

    /// The low half `rNl`.
    pub const fn lo(n: u16) -> PReg {
        PReg::half(2 * n)
    }

    /// The high half `rNh`.
    pub const fn hi(n: u16) -> PReg {
        PReg::half(2 * n + 1)
    }

    /// The 32-bit register `rN`.
    pub const fn r32(n: u16) -> PReg {
        PReg {
            half: 2 * n,
            class: RegClass::R32,
        }
    }

    /// The 64-bit pair `rN:rN+1`.
    pub const fn r64(n: u16) -> PReg {
        PReg {
            half: 2 * n,
            class: RegClass::R64,
        }
    }

    /// `count` consecutive 32-bit registers from `rN`.
    pub const fn vec32(n: u16, count: u8) -> PReg {
        PReg {
            half: 2 * n,
            class: RegClass::Vec32(count),
        }
    }

    /// `count` consecutive 16-bit halves from half `half`.
    pub const fn vec16(half: u16, count: u8) -> PReg {
        PReg {
            half,
            class: RegClass::Vec16(count),
        }
    }

    /// The 16-bit halves this operand covers, as a half-open range.
    pub fn halves(&self) -> std::ops::Range<u32> {
        let first = u32::from(self.half);
        first..first + self.class.units()
    }

    /// The `i`th element of the operand read as a run (see [`RegClass::run`]).
    pub fn element(&self, i: u32) -> PReg {
        let (bits, _) = self.class.run();
        if bits == 16 {
            PReg::half(self.half.saturating_add(i as u16))
        } else {
            PReg {
                half: self.half.saturating_add(2 * i as u16),
                class: RegClass::R32,
            }
        }
    }
}

impl RegUnits for PReg {
    fn units(&self) -> u32 {
        self.class.units()
    }
}

/// Prints a half index as `rNl`/`rNh`.
fn fmt_half(f: &mut fmt::Formatter<'_>, prefix: char, half: u32) -> fmt::Result {
    write!(
        f,
        "{prefix}{}{}",
        half / 2,
        if half.is_multiple_of(2) { 'l' } else { 'h' }
    )
}

impl fmt::Display for PReg {
    /// The disassembler's syntax: `r3l`, `r3h`, `r3`, `r2_r3`, and `{r0, r1, r2}` for runs
    /// (a run of one prints as that register).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let half = u32::from(self.half);
        match self.class {
            RegClass::H16 => fmt_half(f, 'r', half),
            RegClass::R32 => write!(f, "r{}", half / 2),
            RegClass::R64 => write!(f, "r{}_r{}", half / 2, half / 2 + 1),
            RegClass::Vec16(_) | RegClass::Vec32(_) => {
                let (_, count) = self.class.run();
                if count == 1 {
                    return fmt::Display::fmt(&self.element(0), f);
                }
                f.write_str("{")?;
                for i in 0..count {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    fmt::Display::fmt(&self.element(i), f)?;
                }
                f.write_str("}")
            }
        }
    }
}

/// A uniform register operand: the same value for every thread of a SIMD-group (document,
/// introduction: 256 32-bit uniforms `u0..u255`, also addressable as halves `u0l..u255h`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UReg {
    /// A 16-bit uniform by half index (0..=511: `uNl` is `2N`, `uNh` is `2N + 1`).
    U16(u16),
    /// A 32-bit uniform `uN` (0..=255).
    U32(u16),
    /// A 64-bit uniform pair `uN:uN+1` by its first 32-bit uniform (the base address of a
    /// device access; not an ALU operand).
    U64(u16),
}

impl fmt::Display for UReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UReg::U16(h) => fmt_half(f, 'u', u32::from(h)),
            UReg::U32(n) => write!(f, "u{n}"),
            UReg::U64(n) => write!(f, "u{}_u{}", n, u32::from(n) + 1),
        }
    }
}

/// The register-cache hint on a source register (document, "Register Cache"; docs/g13.md,
/// "Register cache hints": type-field low bits 1 = none, 2 = cache, 3 = discard).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Hint {
    /// No hint.
    #[default]
    None,
    /// The value will be read again soon: prefer keeping it in the cache.
    Cache,
    /// Last use: invalidate the cached value after the operands are read, without writing it
    /// back. Later reads are undefined until the register is written again, so never use it
    /// where the execution mask may be partial.
    Discard,
}

impl Hint {
    /// The disassembler's suffix (`""`, `".cache"`, `".discard"`).
    pub const fn suffix(self) -> &'static str {
        match self {
            Hint::None => "",
            Hint::Cache => ".cache",
            Hint::Discard => ".discard",
        }
    }
}
