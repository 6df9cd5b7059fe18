//! The parsed form of a TGSI shader: declarations, immediates, properties and instructions,
//! each with its position in the text.
//!
//! This is a faithful record of the text; meaning (which semantic maps to which IR slot, what
//! an opcode computes) is given by the lifter.

use super::error::Pos;
use super::opcode::Opcode;

/// The shader stage named by the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Processor {
    /// `FRAG`
    Fragment,
    /// `VERT`
    Vertex,
    /// `GEOM`
    Geometry,
    /// `COMP`
    Compute,
    /// `TESS_CTRL`
    TessCtrl,
    /// `TESS_EVAL`
    TessEval,
}

impl Processor {
    /// Header names, in the order the parser tries them.
    pub const NAMES: [(&'static str, Processor); 6] = [
        ("TESS_CTRL", Processor::TessCtrl),
        ("TESS_EVAL", Processor::TessEval),
        ("FRAG", Processor::Fragment),
        ("VERT", Processor::Vertex),
        ("GEOM", Processor::Geometry),
        ("COMP", Processor::Compute),
    ];

    /// The header word.
    pub fn name(self) -> &'static str {
        match self {
            Processor::Fragment => "FRAG",
            Processor::Vertex => "VERT",
            Processor::Geometry => "GEOM",
            Processor::Compute => "COMP",
            Processor::TessCtrl => "TESS_CTRL",
            Processor::TessEval => "TESS_EVAL",
        }
    }
}

macro_rules! named_enum {
    ($(#[$meta:meta])* $name:ident { $( $variant:ident = $text:literal ),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(clippy::upper_case_acronyms)]
        pub enum $name {
            $(
                #[doc = concat!("`", $text, "`")]
                $variant,
            )*
        }

        impl $name {
            /// The name as TGSI text spells it.
            pub fn name(self) -> &'static str {
                match self { $( $name::$variant => $text, )* }
            }

            /// Looks up an upper-case name.
            pub fn from_name(name: &str) -> Option<$name> {
                match name { $( $text => Some($name::$variant), )* _ => None }
            }
        }
    };
}

named_enum! {
    /// A register file.
    RegFile {
        Null = "NULL",
        Const = "CONST",
        Input = "IN",
        Output = "OUT",
        Temp = "TEMP",
        Sampler = "SAMP",
        Address = "ADDR",
        Immediate = "IMM",
        SystemValue = "SV",
        Image = "IMAGE",
        SamplerView = "SVIEW",
        Buffer = "BUFFER",
        Memory = "MEMORY",
    }
}

impl RegFile {
    /// Looks a register file up, also accepting `RES` as the sampler-view file: graw's
    /// `quad-sample.c` declares `DCL RES[0], 2D, FLOAT` and samples it with `SAMPLE`. Later
    /// Mesa spells that file `SVIEW`, reused `RES` for compute resources (a 2012-era
    /// `tgsi_strings.c` lists both) and then dropped `RES`. The compute form (`DCL RES[0], 2D, RAW`)
    /// is refused: `RAW` and `WR` are not sampler-view attributes.
    pub fn parse(name: &str) -> Option<RegFile> {
        match name {
            "RES" => Some(RegFile::SamplerView),
            _ => RegFile::from_name(name),
        }
    }
}

named_enum! {
    /// A declaration semantic (Mesa's `tgsi_semantic_names`).
    Semantic {
        Position = "POSITION",
        Color = "COLOR",
        BColor = "BCOLOR",
        Fog = "FOG",
        PSize = "PSIZE",
        Generic = "GENERIC",
        Normal = "NORMAL",
        Face = "FACE",
        EdgeFlag = "EDGEFLAG",
        PrimId = "PRIM_ID",
        InstanceId = "INSTANCEID",
        VertexId = "VERTEXID",
        Stencil = "STENCIL",
        ClipDist = "CLIPDIST",
        ClipVertex = "CLIPVERTEX",
        GridSize = "GRID_SIZE",
        BlockId = "BLOCK_ID",
        BlockSize = "BLOCK_SIZE",
        ThreadId = "THREAD_ID",
        TexCoord = "TEXCOORD",
        PCoord = "PCOORD",
        ViewportIndex = "VIEWPORT_INDEX",
        Layer = "LAYER",
        SampleId = "SAMPLEID",
        SamplePos = "SAMPLEPOS",
        SampleMask = "SAMPLEMASK",
        InvocationId = "INVOCATIONID",
        VertexIdNoBase = "VERTEXID_NOBASE",
        BaseVertex = "BASEVERTEX",
        Patch = "PATCH",
        TessCoord = "TESSCOORD",
        TessOuter = "TESSOUTER",
        TessInner = "TESSINNER",
        VerticesIn = "VERTICESIN",
        HelperInvocation = "HELPER_INVOCATION",
        BaseInstance = "BASEINSTANCE",
        DrawId = "DRAWID",
        WorkDim = "WORK_DIM",
        SubgroupSize = "SUBGROUP_SIZE",
        SubgroupInvocation = "SUBGROUP_INVOCATION",
        SubgroupEqMask = "SUBGROUP_EQ_MASK",
        SubgroupGeMask = "SUBGROUP_GE_MASK",
        SubgroupGtMask = "SUBGROUP_GT_MASK",
        SubgroupLeMask = "SUBGROUP_LE_MASK",
        SubgroupLtMask = "SUBGROUP_LT_MASK",
        CsUserDataAmd = "CS_USER_DATA_AMD",
    }
}

named_enum! {
    /// A texture target (Mesa's `tgsi_texture_names`).
    TextureTarget {
        Buffer = "BUFFER",
        D1 = "1D",
        D2 = "2D",
        D3 = "3D",
        Cube = "CUBE",
        Rect = "RECT",
        Shadow1D = "SHADOW1D",
        Shadow2D = "SHADOW2D",
        ShadowRect = "SHADOWRECT",
        Array1D = "1D_ARRAY",
        Array2D = "2D_ARRAY",
        Shadow1DArray = "SHADOW1D_ARRAY",
        Shadow2DArray = "SHADOW2D_ARRAY",
        ShadowCube = "SHADOWCUBE",
        Msaa2D = "2D_MSAA",
        Msaa2DArray = "2D_ARRAY_MSAA",
        CubeArray = "CUBEARRAY",
        ShadowCubeArray = "SHADOWCUBEARRAY",
    }
}

impl TextureTarget {
    /// Looks a target up, also accepting the documentation's spellings `CUBE_ARRAY` and
    /// `SHADOWCUBE_ARRAY`.
    pub fn parse(name: &str) -> Option<TextureTarget> {
        match name {
            "CUBE_ARRAY" => Some(TextureTarget::CubeArray),
            "SHADOWCUBE_ARRAY" => Some(TextureTarget::ShadowCubeArray),
            _ => TextureTarget::from_name(name),
        }
    }
}

named_enum! {
    /// The component type a sampler view returns.
    ReturnType {
        Unorm = "UNORM",
        Snorm = "SNORM",
        Sint = "SINT",
        Uint = "UINT",
        Float = "FLOAT",
    }
}

named_enum! {
    /// Fragment input interpolation.
    InterpMode {
        Constant = "CONSTANT",
        Linear = "LINEAR",
        Perspective = "PERSPECTIVE",
        Color = "COLOR",
    }
}

named_enum! {
    /// Where in the pixel an input is interpolated.
    InterpLocation {
        Center = "CENTER",
        Centroid = "CENTROID",
        Sample = "SAMPLE",
    }
}

named_enum! {
    /// The kind of memory a `MEMORY` declaration names.
    MemoryType {
        Global = "GLOBAL",
        Shared = "SHARED",
        Private = "PRIVATE",
        Input = "INPUT",
    }
}

named_enum! {
    /// The type of an immediate.
    ImmType {
        Flt32 = "FLT32",
        Uint32 = "UINT32",
        Int32 = "INT32",
        Flt64 = "FLT64",
        Uint64 = "UINT64",
        Int64 = "INT64",
    }
}

impl ImmType {
    /// True for the 64-bit types, whose values take two 32-bit slots each.
    pub fn is_64bit(self) -> bool {
        matches!(self, ImmType::Flt64 | ImmType::Uint64 | ImmType::Int64)
    }

    /// True for `FLT32` and `FLT64`.
    pub fn is_float(self) -> bool {
        matches!(self, ImmType::Flt32 | ImmType::Flt64)
    }
}

/// A `[first..last]` range in a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// First register.
    pub first: u32,
    /// Last register (inclusive).
    pub last: u32,
}

/// A semantic with its index (`GENERIC[9]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SemanticDecl {
    /// The name.
    pub name: Semantic,
    /// The index (0 when omitted).
    pub index: u32,
    /// Where the name is.
    pub pos: Pos,
}

/// `DCL ...`
#[derive(Clone, Debug, PartialEq)]
pub struct Decl {
    /// The `DCL` keyword.
    pub pos: Pos,
    /// The file.
    pub file: RegFile,
    /// The register range.
    pub range: Range,
    /// The first bracket when there are two (`CONST[1][0..3]`: buffer 1; `IN[][0]`: `None`
    /// inside, the vertex dimension of geometry inputs).
    pub dimension: Option<Option<Range>>,
    /// Usage mask (bit 0 = x); 0xf when omitted.
    pub usage_mask: u8,
    /// `ARRAY(n)`
    pub array_id: Option<u32>,
    /// `LOCAL`
    pub local: bool,
    /// Semantic name and index.
    pub semantic: Option<SemanticDecl>,
    /// Interpolation mode.
    pub interp: Option<InterpMode>,
    /// Interpolation location.
    pub interp_location: Option<InterpLocation>,
    /// `INVARIANT`
    pub invariant: bool,
    /// Sampler view or image target.
    pub texture: Option<TextureTarget>,
    /// Sampler view return types (x, y, z, w).
    pub return_types: Option<[ReturnType; 4]>,
    /// `MEMORY` kind.
    pub memory: Option<MemoryType>,
    /// `BUFFER ..., ATOMIC`
    pub atomic: bool,
    /// Image attributes: `RAW`, `WR`, and a format name.
    pub image_raw: bool,
    /// Image is writable.
    pub image_writable: bool,
    /// Image format name as written.
    pub image_format: Option<String>,
    /// Geometry output streams `STREAM(a, b, c, d)`.
    pub streams: Option<[u32; 4]>,
}

/// `IMM[n] TYPE {a, b, c, d}`: the four 32-bit slots (64-bit values take two slots, low word
/// first).
#[derive(Clone, Debug, PartialEq)]
pub struct Immediate {
    /// The `IMM` keyword.
    pub pos: Pos,
    /// The declared type.
    pub ty: ImmType,
    /// Raw 32-bit slots.
    pub slots: [u32; 4],
}

/// The value of a property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PropertyValue {
    /// A number.
    Uint(u32),
    /// A name (`LOWER_LEFT`, `TRIANGLES`).
    Name(String),
}

/// `PROPERTY NAME value`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    /// The `PROPERTY` keyword.
    pub pos: Pos,
    /// The property name (upper case).
    pub name: String,
    /// Where the name is.
    pub name_pos: Pos,
    /// The value.
    pub value: PropertyValue,
}

/// An indirect index: `ADDR[0].x` inside a bracket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Indirect {
    /// File of the index register.
    pub file: RegFile,
    /// Index of the index register.
    pub index: u32,
    /// Component (0..4).
    pub comp: u8,
    /// Where it is.
    pub pos: Pos,
}

/// The contents of a register bracket: a constant index, or an indirect register plus a
/// constant offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Index {
    /// Constant index or offset.
    pub offset: i64,
    /// The indirect register, if any.
    pub indirect: Option<Indirect>,
}

/// A register reference: file, index, optional array id and optional second bracket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegRef {
    /// Where the file name is.
    pub pos: Pos,
    /// The file.
    pub file: RegFile,
    /// The register index (the last bracket).
    pub index: Index,
    /// The first bracket when there are two (`CONST[1][2]`: 1).
    pub dimension: Option<Index>,
    /// `(n)` after the index bracket.
    pub array_id: Option<u32>,
}

/// A source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Src {
    /// Where the operand starts (its sign or bar).
    pub pos: Pos,
    /// The register.
    pub reg: RegRef,
    /// Swizzle (component index per channel).
    pub swizzle: [u8; 4],
    /// `-`
    pub negate: bool,
    /// `|...|`
    pub absolute: bool,
}

/// A destination operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dst {
    /// Where the operand starts.
    pub pos: Pos,
    /// The register.
    pub reg: RegRef,
    /// Write mask (bit 0 = x).
    pub mask: u8,
}

/// A texel offset operand (`IMM[0].xyx`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexOffset {
    /// Where it is.
    pub pos: Pos,
    /// The register.
    pub reg: RegRef,
    /// Swizzle of the three offsets.
    pub swizzle: [u8; 3],
}

/// An instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    /// Where the mnemonic is.
    pub pos: Pos,
    /// The `N:` label written before it, if any.
    pub label: Option<u32>,
    /// The opcode.
    pub opcode: Opcode,
    /// `_SAT`
    pub saturate: bool,
    /// `_PRECISE`
    pub precise: bool,
    /// Destinations.
    pub dsts: Vec<Dst>,
    /// Sources.
    pub srcs: Vec<Src>,
    /// Texture target of texture opcodes.
    pub texture: Option<TextureTarget>,
    /// Texel offsets.
    pub tex_offsets: Vec<TexOffset>,
    /// Memory qualifiers and attributes of memory opcodes, as written.
    pub memory_attrs: Vec<String>,
    /// `:N` branch target.
    pub target: Option<u32>,
}

/// A whole shader.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// The stage.
    pub processor: Processor,
    /// Where the header is.
    pub header_pos: Pos,
    /// Declarations in order.
    pub decls: Vec<Decl>,
    /// Immediates in order (`IMM[n]` is `imms[n]`).
    pub imms: Vec<Immediate>,
    /// Properties in order.
    pub props: Vec<Property>,
    /// Instructions in order; an instruction's label value is its index here.
    pub insts: Vec<Instruction>,
}
