//! Operands of the memory, fragment I/O and texture instructions. The document leaves most of
//! them `TODO()`; these follow the definitions of the simulator (`agxc-runtime-sim`,
//! `decode::memory` and `decode::texture` module docs), which take them from Mesa's AGX packer
//! and docs/g13.md.

/// Memory element formats (Mesa's `enum agx_format`; the simulator's `MemFormat`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum MemFormat {
    I8,
    I16,
    I32,
    F16,
    U8Norm,
    S8Norm,
    U16Norm,
    S16Norm,
    Rgb10a2,
    Srgba8,
    Rg11b10f,
    Rgb9e5,
}

impl MemFormat {
    /// Every format.
    pub const ALL: [MemFormat; 12] = {
        use MemFormat::*;
        [
            I8, I16, I32, F16, U8Norm, S8Norm, U16Norm, S16Norm, Rgb10a2, Srgba8, Rg11b10f, Rgb9e5,
        ]
    };

    /// The 4-bit format code.
    pub const fn code(self) -> u32 {
        match self {
            MemFormat::I8 => 0,
            MemFormat::I16 => 1,
            MemFormat::I32 => 2,
            MemFormat::F16 => 3,
            MemFormat::U8Norm => 4,
            MemFormat::S8Norm => 5,
            MemFormat::U16Norm => 6,
            MemFormat::S16Norm => 7,
            MemFormat::Rgb10a2 => 8,
            MemFormat::Srgba8 => 10,
            MemFormat::Rg11b10f => 12,
            MemFormat::Rgb9e5 => 13,
        }
    }

    /// The disassembler's name.
    pub const fn name(self) -> &'static str {
        match self {
            MemFormat::I8 => "i8",
            MemFormat::I16 => "i16",
            MemFormat::I32 => "i32",
            MemFormat::F16 => "f16",
            MemFormat::U8Norm => "unorm8",
            MemFormat::S8Norm => "snorm8",
            MemFormat::U16Norm => "unorm16",
            MemFormat::S16Norm => "snorm16",
            MemFormat::Rgb10a2 => "rgb10a2",
            MemFormat::Srgba8 => "srgba8",
            MemFormat::Rg11b10f => "rg11b10f",
            MemFormat::Rgb9e5 => "rgb9e5",
        }
    }

    /// Whether the format packs several components in one 32-bit word (rgb10a2, rg11b10f,
    /// rgb9e5): those ignore the mask and shift and always move 4 or 3 registers (docs/g13.md,
    /// "device_load / device_store").
    pub const fn is_bit_packed(self) -> bool {
        matches!(
            self,
            MemFormat::Rgb10a2 | MemFormat::Rg11b10f | MemFormat::Rgb9e5
        )
    }

    /// How many registers a device access with this format and `mask` moves.
    pub const fn register_count(self, mask: u8) -> u32 {
        match self {
            MemFormat::Rgb10a2 => 4,
            MemFormat::Rg11b10f | MemFormat::Rgb9e5 => 3,
            _ => mask.count_ones(),
        }
    }
}

/// The base address of a device access (document, `MemoryBase`): a 64-bit value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemBase<R> {
    /// A 64-bit uniform pair `uN:uN+1`, by its first 32-bit uniform (0..=127: the field holds
    /// `2N` in 8 bits).
    Uniform(u16),
    /// A 64-bit register pair (a 64-bit register).
    Reg(R),
}

/// The element offset of a device or stack access (document, `MemoryIndex`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemOffset<R> {
    /// A signed 16-bit immediate.
    Imm(i16),
    /// A 32-bit register (r0..r127), sign-extended (`signed`) or zero-extended. The stack
    /// instructions have no zero-extension bit and only take `signed`.
    Reg {
        /// The register.
        reg: R,
        /// Sign-extend (else zero-extend).
        signed: bool,
    },
}

impl<R> MemOffset<R> {
    /// The same offset with registers mapped by `f`.
    pub fn map<S>(self, f: &mut impl FnMut(R) -> S) -> MemOffset<S> {
        match self {
            MemOffset::Imm(v) => MemOffset::Imm(v),
            MemOffset::Reg { reg, signed } => MemOffset::Reg {
                reg: f(reg),
                signed,
            },
        }
    }
}

/// A `device_load` or `device_store`: `data` moves to or from
/// `base + (offset << (log2(element size) + shift))` (docs/g13.md, "device_load / device_store").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DeviceAccess<R> {
    /// The registers loaded or stored: a run of 16- or 32-bit registers, one per set bit of
    /// `mask` (bit-packed formats: one per component). `i32` needs 32-bit registers.
    pub data: R,
    /// Base address.
    pub base: MemBase<R>,
    /// Element offset.
    pub offset: MemOffset<R>,
    /// Element format.
    pub format: MemFormat,
    /// Elements to move (4 bits, not 0); gaps skip memory, registers stay contiguous.
    pub mask: u8,
    /// Extra left shift of the offset, 0..=2.
    pub shift: u8,
    /// Wait slot (0 or 1) the access completes on.
    pub slot: u8,
}

/// A `stack_load` or `stack_store` (spilling): `data` moves to or from the thread's stack at
/// element offset `offset` (the simulator's definition: formats `i8`, `i16`, `i32`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StackAccess<R> {
    /// The registers: a run of 16- or 32-bit registers, one per set bit of `mask`.
    pub data: R,
    /// Element offset (an immediate or a sign-extended 32-bit register).
    pub offset: MemOffset<R>,
    /// Element format.
    pub format: MemFormat,
    /// Elements to move (4 bits, not 0).
    pub mask: u8,
}

/// The base of a threadgroup access (`ThreadgroupMemoryBase`, defined by the simulator).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TgBase<R> {
    /// A 16-bit register holding a byte address.
    Reg(R),
    /// A 16-bit uniform by half index (0..=511).
    Uniform(u16),
    /// An immediate byte address (0..=255).
    Imm(u8),
}

/// The element index of a threadgroup access (`ThreadgroupIndex`, defined by the simulator).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TgOffset<R> {
    /// A signed 16-bit immediate.
    Imm(i16),
    /// A sign-extended 16-bit register (halves 0..=255).
    Reg(R),
}

/// A `threadgroup_load` or `threadgroup_store`: element `k` of the mask is at
/// `base + (offset << log2(element size)) + k * element size`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TgAccess<R> {
    /// The registers: a run of 16- or 32-bit registers, one per set bit of `mask`.
    pub data: R,
    /// Base byte address.
    pub base: TgBase<R>,
    /// Element index.
    pub offset: TgOffset<R>,
    /// Element format (not the bit-packed ones).
    pub format: MemFormat,
    /// Elements to move (4 bits, not 0).
    pub mask: u8,
}

/// Texture dimensionality (the `n` field).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum TexDim {
    D1,
    D1Array,
    D2,
    D2Array,
    D3,
    Cube,
    CubeArray,
}

impl TexDim {
    /// Every dimensionality.
    pub const ALL: [TexDim; 7] = [
        TexDim::D1,
        TexDim::D1Array,
        TexDim::D2,
        TexDim::D2Array,
        TexDim::D3,
        TexDim::Cube,
        TexDim::CubeArray,
    ];

    /// The field value.
    pub const fn code(self) -> u32 {
        match self {
            TexDim::D1 => 0,
            TexDim::D1Array => 1,
            TexDim::D2 => 2,
            TexDim::D2Array => 3,
            TexDim::D3 => 5,
            TexDim::Cube => 6,
            TexDim::CubeArray => 7,
        }
    }

    /// The disassembler's name.
    pub const fn name(self) -> &'static str {
        match self {
            TexDim::D1 => "1d",
            TexDim::D1Array => "1d_array",
            TexDim::D2 => "2d",
            TexDim::D2Array => "2d_array",
            TexDim::D3 => "3d",
            TexDim::Cube => "cube",
            TexDim::CubeArray => "cube_array",
        }
    }

    /// Coordinate components before the array layer (cube: the 3D direction).
    pub const fn components(self) -> u32 {
        match self {
            TexDim::D1 | TexDim::D1Array => 1,
            TexDim::D2 | TexDim::D2Array => 2,
            TexDim::D3 | TexDim::Cube | TexDim::CubeArray => 3,
        }
    }

    /// Whether an array layer follows the coordinates.
    pub const fn is_array(self) -> bool {
        matches!(self, TexDim::D1Array | TexDim::D2Array | TexDim::CubeArray)
    }

    /// 32-bit coordinate registers: components plus the layer.
    pub const fn coord_count(self) -> u32 {
        self.components() + self.is_array() as u32
    }
}

/// How a texture instruction picks its level of detail (docs/g13.md, "texture_sample /
/// texture_load": the 4-bit mode at bit 52). Uniform operands are 32-bit uniforms by index
/// (0..=127); register operands are runs of 32-bit registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lod<R> {
    /// Mode 0: from the quad's derivatives.
    Auto,
    /// Mode 1: bias from a 32-bit uniform.
    BiasUniform(u16),
    /// Mode 2: explicit LOD from a 32-bit uniform.
    LodUniform(u16),
    /// Mode 4: gradients, 2n 32-bit registers `dx.x, dy.x, dx.y, dy.y[, dx.z, dy.z]`.
    Gradient(R),
    /// Mode 5: bias from a 32-bit register.
    BiasReg(R),
    /// Mode 6: explicit LOD from a 32-bit register (an integer level for `texture_load`).
    LodReg(R),
    /// Mode 9: bias then minimum LOD from two consecutive 32-bit uniforms.
    BiasMinUniform(u16),
    /// Mode 12: gradients then a minimum LOD, 2n + 1 32-bit registers.
    GradientMin(R),
    /// Mode 13: bias then minimum LOD from two consecutive 32-bit registers.
    BiasMinReg(R),
}

impl<R> Lod<R> {
    /// The mode field value.
    pub const fn code(&self) -> u32 {
        match self {
            Lod::Auto => 0,
            Lod::BiasUniform(_) => 1,
            Lod::LodUniform(_) => 2,
            Lod::Gradient(_) => 4,
            Lod::BiasReg(_) => 5,
            Lod::LodReg(_) => 6,
            Lod::BiasMinUniform(_) => 9,
            Lod::GradientMin(_) => 12,
            Lod::BiasMinReg(_) => 13,
        }
    }

    /// The disassembler's name.
    pub const fn name(&self) -> &'static str {
        match self {
            Lod::Auto => "auto",
            Lod::BiasUniform(_) | Lod::BiasReg(_) => "bias",
            Lod::LodUniform(_) | Lod::LodReg(_) => "lod",
            Lod::Gradient(_) => "grad",
            Lod::BiasMinUniform(_) | Lod::BiasMinReg(_) => "bias_min",
            Lod::GradientMin(_) => "grad_min",
        }
    }

    /// The register operand, if the mode takes registers.
    pub fn reg(&self) -> Option<&R> {
        match self {
            Lod::Gradient(r)
            | Lod::BiasReg(r)
            | Lod::LodReg(r)
            | Lod::GradientMin(r)
            | Lod::BiasMinReg(r) => Some(r),
            Lod::Auto | Lod::BiasUniform(_) | Lod::LodUniform(_) | Lod::BiasMinUniform(_) => None,
        }
    }

    /// How many 32-bit registers the register operand holds for a texture of `dim`
    /// (0 for the automatic and uniform modes).
    pub const fn register_count(&self, dim: TexDim) -> u32 {
        match self {
            Lod::Auto | Lod::BiasUniform(_) | Lod::LodUniform(_) | Lod::BiasMinUniform(_) => 0,
            Lod::BiasReg(_) | Lod::LodReg(_) => 1,
            Lod::BiasMinReg(_) => 2,
            Lod::Gradient(_) => 2 * dim.components(),
            Lod::GradientMin(_) => 2 * dim.components() + 1,
        }
    }

    /// The same mode with registers mapped by `f`.
    pub fn map<S>(self, f: &mut impl FnMut(R) -> S) -> Lod<S> {
        match self {
            Lod::Auto => Lod::Auto,
            Lod::BiasUniform(u) => Lod::BiasUniform(u),
            Lod::LodUniform(u) => Lod::LodUniform(u),
            Lod::BiasMinUniform(u) => Lod::BiasMinUniform(u),
            Lod::Gradient(r) => Lod::Gradient(f(r)),
            Lod::BiasReg(r) => Lod::BiasReg(f(r)),
            Lod::LodReg(r) => Lod::LodReg(f(r)),
            Lod::GradientMin(r) => Lod::GradientMin(f(r)),
            Lod::BiasMinReg(r) => Lod::BiasMinReg(f(r)),
        }
    }
}

/// A texture or sampler slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TexIndex<R> {
    /// An immediate slot (0..=255).
    Imm(u8),
    /// A 16-bit register holding the slot.
    Reg(R),
}

impl<R> TexIndex<R> {
    /// The same slot with registers mapped by `f`.
    pub fn map<S>(self, f: &mut impl FnMut(R) -> S) -> TexIndex<S> {
        match self {
            TexIndex::Imm(v) => TexIndex::Imm(v),
            TexIndex::Reg(r) => TexIndex::Reg(f(r)),
        }
    }
}

/// The shadow-compare reference and texel offsets of a texture instruction: consecutive 32-bit
/// registers, the reference (f32) first if present, then the offsets packed as signed 4-bit
/// values (x in bits 3:0, y in 7:4, z in 11:8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TexExtra<R> {
    /// The registers: one or two 32-bit registers.
    pub regs: R,
    /// A compare reference is supplied (`texture_sample` only).
    pub compare: bool,
    /// Texel offsets are supplied.
    pub offset: bool,
}

/// An `image_write` (Mesa's `agx_opcodes.py` `image_write`, packed by `agx_pack.c`
/// `AGX_OPCODE_IMAGE_WRITE`): one texel per thread, converted to the bound texture's format,
/// at integer coordinates and an immediate level; out-of-range texels are dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ImageWriteOp<R> {
    /// The four components: a run of four 32-bit registers (f32 bits or integer words).
    pub data: R,
    /// Coordinates then array layer: [`TexDim::coord_count`] 32-bit integer registers.
    pub coords: R,
    /// Last-use (discard) hint on the coordinate registers (`Ct`, bit 22).
    pub coords_discard: bool,
    /// Texture slot (the image is bound as a texture).
    pub texture: TexIndex<R>,
    /// Dimensionality.
    pub dim: TexDim,
    /// The level written (a 16-bit immediate, `Dt` set).
    pub level: u8,
}

/// A `texture_sample` or `texture_load`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TexOp<R> {
    /// Results: a run of 32-bit (f32) or 16-bit (f16) registers, one per set bit of `mask`.
    pub dst: R,
    /// Coordinates then array layer: [`TexDim::coord_count`] 32-bit registers (float for
    /// sampling, integer for loads).
    pub coords: R,
    /// Last-use (discard) hint on the coordinate registers (docs/g13.md: bit 22); there is no
    /// cache hint here.
    pub coords_discard: bool,
    /// Texture slot.
    pub texture: TexIndex<R>,
    /// Sampler slot.
    pub sampler: TexIndex<R>,
    /// Dimensionality.
    pub dim: TexDim,
    /// Level of detail (`texture_load`: automatic, or an explicit level only).
    pub lod: Lod<R>,
    /// Compare reference and/or texel offsets.
    pub extra: Option<TexExtra<R>>,
    /// Components written: bit 0 red .. bit 3 alpha (not 0).
    pub mask: u8,
    /// Wait slot (0 or 1) of the result.
    pub slot: u8,
    /// Gather this component (0 red .. 3 alpha) of the four texels of the bilinear footprint
    /// at the base level instead of filtering (`texture_sample` of 2D and cube textures).
    pub gather: Option<u8>,
}

/// The operation of an `atomic` or `local_atomic` (Mesa's `enum agx_atomic_opc`,
/// `src/asahi/compiler/agx_opcodes.py`): a 4-bit code. Every operation reads the 32-bit word,
/// writes its new value and returns the old one; `Cmpxchg` takes a register pair (new value,
/// then comparand, as Mesa's `agx_emit_atomic` builds it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum AtomicOpc {
    Add,
    Sub,
    Xchg,
    Cmpxchg,
    Umin,
    Imin,
    Umax,
    Imax,
    And,
    Or,
    Xor,
}

impl AtomicOpc {
    /// Every operation, in code order.
    pub const ALL: [AtomicOpc; 11] = {
        use AtomicOpc::*;
        [
            Add, Sub, Xchg, Cmpxchg, Umin, Imin, Umax, Imax, And, Or, Xor,
        ]
    };

    /// The 4-bit code.
    pub const fn code(self) -> u32 {
        self as u32
    }

    /// The disassembler's name.
    pub const fn name(self) -> &'static str {
        use AtomicOpc::*;
        match self {
            Add => "add",
            Sub => "sub",
            Xchg => "xchg",
            Cmpxchg => "cmpxchg",
            Umin => "umin",
            Imin => "imin",
            Umax => "umax",
            Imax => "imax",
            And => "and",
            Or => "or",
            Xor => "xor",
        }
    }

    /// 32-bit registers of the value operand: 2 for `cmpxchg`, else 1.
    pub const fn value_count(self) -> u32 {
        if matches!(self, AtomicOpc::Cmpxchg) {
            2
        } else {
            1
        }
    }
}

/// An `atomic` on device memory: the 32-bit word at `base + (offset << 2)` (the simulator's
/// definition: the index counts words) becomes `op(old, value)`; `dst`, if any, receives `old`
/// on the wait slot, like a `device_load`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DeviceAtomic<R> {
    /// The operation.
    pub op: AtomicOpc,
    /// The 32-bit register receiving the old value; `None` when the result is unused.
    pub dst: Option<R>,
    /// The value: a 32-bit register, or for `cmpxchg` two (new value, comparand).
    pub value: R,
    /// Base address.
    pub base: MemBase<R>,
    /// Word index.
    pub offset: MemOffset<R>,
    /// Wait slot (0 or 1) the result arrives on.
    pub slot: u8,
}

/// A `local_atomic` on threadgroup memory: the 32-bit word at `base + (offset << 2)` becomes
/// `op(old, value)`; `dst`, if any, receives `old` at once (no wait, like
/// `threadgroup_load`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TgAtomic<R> {
    /// The operation.
    pub op: AtomicOpc,
    /// The 32-bit register receiving the old value; `None` when the result is unused.
    pub dst: Option<R>,
    /// The value: a 32-bit register, or for `cmpxchg` two (new value, comparand).
    pub value: R,
    /// Base byte address.
    pub base: TgBase<R>,
    /// Word index.
    pub offset: TgOffset<R>,
}
