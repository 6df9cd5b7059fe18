//! The geometry stage's execution modes: the primitive each invocation receives, the primitive
//! it builds from its emitted vertices, how many vertices it may emit and how many times it
//! runs per input primitive.
//!
//! These are the four things every source language states for a geometry shader (GLSL
//! `layout(triangles) in; layout(triangle_strip, max_vertices = 3) out; layout(invocations =
//! 2) in;`, SPIR-V's `Triangles`/`OutputTriangleStrip`/`OutputVertices`/`Invocations`
//! execution modes, TGSI's `GS_INPUT_PRIMITIVE`, `GS_OUTPUT_PRIMITIVE`,
//! `GS_MAX_OUTPUT_VERTICES` and `GS_INVOCATIONS` properties). They travel with the stage
//! ([`Stage::Geometry`](super::Stage::Geometry)), so a geometry function cannot lack them.

/// The most vertex streams a geometry shader may emit to (`emit_vertex 0..=3`): the minimum
/// of GL's `GL_MAX_VERTEX_STREAMS` and Direct3D's `emit_stream` index range `[0..3]`.
pub const MAX_VERTEX_STREAMS: u8 = 4;

/// The most vertices one geometry invocation may declare (`max_vertices`): the minimum
/// maximum of GL's `GL_MAX_GEOMETRY_OUTPUT_VERTICES` and Vulkan's `maxGeometryOutputVertices`
/// (256), so a function within it runs on every implementation.
pub const MAX_GEOMETRY_OUTPUT_VERTICES: u32 = 256;

/// The most invocations per input primitive: the minimum maximum of GL's
/// `GL_MAX_GEOMETRY_SHADER_INVOCATIONS` and Vulkan's `maxGeometryShaderInvocations` (32).
pub const MAX_GEOMETRY_INVOCATIONS: u32 = 32;

/// The primitive a geometry invocation receives.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum InputPrimitive {
    /// One vertex.
    Points,
    /// Two vertices.
    Lines,
    /// Four vertices: the line is 1-2, with 0 and 3 adjacent.
    LinesAdjacency,
    /// Three vertices.
    Triangles,
    /// Six vertices: the triangle is 0-2-4, with 1, 3 and 5 adjacent.
    TrianglesAdjacency,
}

impl InputPrimitive {
    /// Every input primitive, in a fixed order.
    pub const ALL: [InputPrimitive; 5] = [
        InputPrimitive::Points,
        InputPrimitive::Lines,
        InputPrimitive::LinesAdjacency,
        InputPrimitive::Triangles,
        InputPrimitive::TrianglesAdjacency,
    ];

    /// The number of vertices one primitive has (the range of `vertex_input`'s index).
    pub fn vertex_count(self) -> u32 {
        match self {
            InputPrimitive::Points => 1,
            InputPrimitive::Lines => 2,
            InputPrimitive::LinesAdjacency => 4,
            InputPrimitive::Triangles => 3,
            InputPrimitive::TrianglesAdjacency => 6,
        }
    }

    /// Text-form name.
    pub fn name(self) -> &'static str {
        match self {
            InputPrimitive::Points => "points",
            InputPrimitive::Lines => "lines",
            InputPrimitive::LinesAdjacency => "lines_adjacency",
            InputPrimitive::Triangles => "triangles",
            InputPrimitive::TrianglesAdjacency => "triangles_adjacency",
        }
    }

    /// Parses a text-form name.
    pub fn from_name(s: &str) -> Option<InputPrimitive> {
        InputPrimitive::ALL.into_iter().find(|p| p.name() == s)
    }
}

/// The primitive a geometry invocation's emitted vertices are assembled into.
///
/// GLSL and SPIR-V have the strips and points only. TGSI's `GS_OUTPUT_PRIMITIVE` takes any
/// Gallium primitive, and Mesa's own test shaders use `LINES` (graw's
/// `geometry-shader/line.tgsi`), so the list forms are here too: their vertices are grouped
/// two or three at a time within each `end_primitive`-delimited run instead of forming a
/// strip.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum OutputPrimitive {
    /// Each vertex a point.
    Points,
    /// Each pair of vertices a line.
    Lines,
    /// A connected line through the vertices.
    LineStrip,
    /// Each three vertices a triangle.
    Triangles,
    /// A strip of triangles.
    TriangleStrip,
}

impl OutputPrimitive {
    /// Every output primitive, in a fixed order.
    pub const ALL: [OutputPrimitive; 5] = [
        OutputPrimitive::Points,
        OutputPrimitive::Lines,
        OutputPrimitive::LineStrip,
        OutputPrimitive::Triangles,
        OutputPrimitive::TriangleStrip,
    ];

    /// Text-form name.
    pub fn name(self) -> &'static str {
        match self {
            OutputPrimitive::Points => "points",
            OutputPrimitive::Lines => "lines",
            OutputPrimitive::LineStrip => "line_strip",
            OutputPrimitive::Triangles => "triangles",
            OutputPrimitive::TriangleStrip => "triangle_strip",
        }
    }

    /// Parses a text-form name.
    pub fn from_name(s: &str) -> Option<OutputPrimitive> {
        OutputPrimitive::ALL.into_iter().find(|p| p.name() == s)
    }
}

/// A geometry shader's execution modes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct GeometryModes {
    /// The primitive each invocation receives.
    pub input: InputPrimitive,
    /// The primitive the emitted vertices form.
    pub output: OutputPrimitive,
    /// The most vertices one invocation emits (over all streams); emitting more is an error
    /// of the shader (undefined in GLSL; the reference interpreter reports it).
    pub max_vertices: u32,
    /// Invocations per input primitive (at least 1), told apart by `builtin invocation_id`.
    pub invocations: u32,
}

impl GeometryModes {
    /// Modes with one invocation per primitive.
    pub fn new(input: InputPrimitive, output: OutputPrimitive, max_vertices: u32) -> Self {
        GeometryModes {
            input,
            output,
            max_vertices,
            invocations: 1,
        }
    }
}
