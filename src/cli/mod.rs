//! The `agxc` command line, following the spirv-tools conventions: one program with
//! subcommands, SHADER a SPIR-V binary or TGSI (or agxc IR) text told apart by content, errors as
//! one line on stderr with a non-zero exit status, progress through `RUST_LOG`.

pub mod asm;
pub mod images;
pub mod resources;
pub mod run;
pub mod sim_args;
pub mod spec;
pub mod vertex;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// agxc: compile SPIR-V and TGSI shaders for the Apple G13 GPU and run them in its simulator.
#[derive(Parser, Debug)]
#[command(name = "agxc", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Compile a shader and write the binary or a dump.
    Compile(CompileArgs),
    /// Compile a shader, run it in the G13 simulator and write back its results.
    #[command(after_long_help = RUN_HELP)]
    Run(Box<RunArgs>),
    /// Disassemble raw G13 machine code (as written by `compile --emit bin`).
    Disasm {
        /// The binary.
        bin: PathBuf,
    },
    /// Assemble G13 assembly (the syntax `disasm` prints; labels or byte offsets for jumps)
    /// into raw machine code.
    Asm {
        /// The assembly source.
        source: PathBuf,
        /// Output file (default: standard output).
        #[arg(short = 'o', value_name = "OUT")]
        output: Option<PathBuf>,
    },
    /// Run AmberScript test scripts through the compiler and the simulator: PASS/FAIL per file.
    Amber {
        /// The scripts.
        #[arg(required = true)]
        scripts: Vec<PathBuf>,
        /// Optimization level: -O0 (none) or -O2 (equality saturation).
        #[arg(short = 'O', value_name = "LEVEL", default_value = "2", value_parser = ["0", "2"])]
        opt: String,
    },
}

/// What `compile` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Emit {
    /// Raw G13 machine code.
    Bin,
    /// Disassembly; the preamble's, if any, follows as `;` comment lines (so the text still
    /// assembles to the main program).
    Asm,
    /// The preamble's raw G13 machine code (empty when the shader has none).
    PreambleBin,
    /// The preamble's disassembly (empty when the shader has none).
    PreambleAsm,
    /// The lifted graph IR.
    Ir,
    /// The graph IR after optimization.
    IrOpt,
    /// The graph IR after each control-flow pass of the optimizer, each headed by its name.
    IrPasses,
    /// The saturated e-graph as Graphviz DOT, extracted nodes marked.
    EgraphDot,
    /// The saturated e-graph as SVG (needs Graphviz's `dot`).
    EgraphSvg,
    /// The saturated e-graph as one self-contained interactive HTML page: every e-class, the
    /// extracted e-nodes marked, pan, zoom, search, costs and the rules behind each class.
    EgraphHtml,
    /// Optimizer and code statistics: instructions, cycles, registers, occupancy, spills.
    Report,
}

/// Options shared by `compile` and `run`.
#[derive(Args, Debug)]
pub struct ShaderArgs {
    /// The shader: a SPIR-V binary, TGSI text or agxc IR text.
    pub shader: PathBuf,
    /// Entry point name (default: the only one).
    #[arg(long)]
    pub entry: Option<String>,
    /// Optimization level: -O0 (none) or -O2 (equality saturation).
    #[arg(short = 'O', value_name = "LEVEL", default_value = "2", value_parser = ["0", "2"])]
    pub opt: String,
    /// Compute `RelaxedPrecision` (GLSL `mediump`) float arithmetic in f16 at -O2: half the
    /// registers for those values, with 16-bit precision (a relative error of about 2^-11 per
    /// operation), as Vulkan allows. Off by default: results match f32 implementations.
    #[arg(long)]
    pub relaxed_f16: bool,
    /// Print the code after these passes to stderr (`all`, or names from `lift`, `verify`,
    /// the optimizer's steps and control-flow passes and the backend's passes; an unknown name
    /// lists them). Default: the
    /// `AGXC_DUMP` environment variable, read the same way.
    #[arg(long, value_name = "PASS[,PASS]|all", value_parser = dump_passes)]
    pub dump: Option<agxc::DumpPasses>,
    /// Equality saturation: stop after N iterations (default 12; `--emit report` says
    /// which limit stopped a run).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_iterations: Option<u32>,
    /// Equality saturation: stop once the e-graph holds more than N e-nodes (default: four
    /// times the input's e-nodes plus 10000).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: Option<u64>,
    /// Equality saturation: stop after this many seconds (default 10; a run stopped by time
    /// depends on the machine).
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub time_limit: Option<std::time::Duration>,
}

fn seconds(text: &str) -> Result<std::time::Duration, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .and_then(|s| std::time::Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| format!("`{text}` is not a number of seconds (0 or more)"))
}

fn dump_passes(text: &str) -> Result<agxc::DumpPasses, String> {
    agxc::DumpPasses::parse(text).map_err(|e| e.to_string())
}

/// `agxc compile`.
#[derive(Args, Debug)]
pub struct CompileArgs {
    /// The shader and how to compile it.
    #[command(flatten)]
    pub shader: ShaderArgs,
    /// Output file (default: standard output).
    #[arg(short = 'o', value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// What to write.
    #[arg(long, value_enum, default_value = "bin")]
    pub emit: Emit,
}

/// `agxc run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// The shader and how to compile it.
    #[command(flatten)]
    pub shader: ShaderArgs,
    /// Print simulator statistics.
    #[arg(long)]
    pub stats: bool,
    /// A buffer's initial contents: raw little-endian bytes (storage or uniform, whichever the
    /// shader declares at that binding).
    #[arg(long = "buffer", value_name = "[SET.]BINDING=FILE", value_parser = spec::binding_file)]
    pub buffers: Vec<(spec::BindingSpec, PathBuf)>,
    /// A zero-filled buffer of the given size.
    #[arg(long = "buffer-size", value_name = "[SET.]BINDING=BYTES", value_parser = spec::binding_size)]
    pub buffer_sizes: Vec<(spec::BindingSpec, u64)>,
    /// Push-constant bytes (for TGSI: `CONST[0]`).
    #[arg(long, value_name = "FILE")]
    pub push: Option<PathBuf>,
    /// TGSI constant buffer `CONST[N]`.
    #[arg(long = "const", value_name = "N=FILE", value_parser = spec::index_file)]
    pub consts: Vec<(u32, PathBuf)>,
    /// A sampled texture and its sampler (see the input formats below).
    #[arg(
        long = "texture",
        value_name = "[SET.]BINDING=FILE,SHAPE,FORMAT[,FILTER[,WRAP]][,KEY=VALUE...]",
        value_parser = images::texture
    )]
    pub textures: Vec<images::ImageSpec>,
    /// A storage image (no sampler); an empty FILE is a zero-filled image.
    #[arg(
        long = "storage-image",
        value_name = "[SET.]BINDING=[FILE],SHAPE,FORMAT[,layers=N][,levels=N]",
        value_parser = images::storage_image
    )]
    pub storage_images: Vec<images::ImageSpec>,
    /// A separate sampler object.
    #[arg(
        long = "sampler",
        value_name = "[SET.]BINDING=FILTER[,WRAP][,KEY=VALUE...]",
        value_parser = images::separate_sampler
    )]
    pub samplers: Vec<(spec::BindingSpec, agxc::egraph::interp::Sampler)>,
    /// Write a buffer's or an image's final contents to FILE (images in the texel layout they
    /// were given in).
    #[arg(long = "out", value_name = "[SET.]BINDING=FILE", value_parser = spec::binding_file)]
    pub outs: Vec<(spec::BindingSpec, PathBuf)>,
    /// Compute: workgroup counts.
    #[arg(long, value_name = "X[,Y,Z]", value_parser = spec::groups)]
    pub groups: Option<[u32; 3]>,
    /// Fragment: the grid size.
    #[arg(long, value_name = "WxH", value_parser = spec::size)]
    pub size: Option<[u32; 2]>,
    /// Fragment: where to write render target 0 (RGBA32F raw, rows top to bottom).
    #[arg(long, value_name = "OUT")]
    pub image: Option<PathBuf>,
    /// Fragment: the image's initial contents (default 0,0,0,0; `nan` accepted).
    #[arg(long, value_name = "R,G,B,A", value_parser = spec::clear)]
    pub clear: Option<[f32; 4]>,
    /// Fragment: varyings (see `agxc run --help` and the README for the layout).
    #[arg(long, value_name = "FILE")]
    pub varyings: Option<PathBuf>,
    /// Vertex: the attribute array of a location, four little-endian f32 per vertex.
    #[arg(long = "attribute", value_name = "LOCATION=FILE", value_parser = spec::index_file)]
    pub attributes: Vec<(u32, PathBuf)>,
    /// Vertex: vertices to shade (default: the attribute files' length).
    #[arg(long, value_name = "N")]
    pub vertices: Option<u32>,
    /// Vertex: write an output's values, four f32 per vertex (`point-size`: one).
    #[arg(long = "vertex-out", value_name = "position|point-size|LOCATION=FILE", value_parser = vertex::output_file)]
    pub vertex_outs: Vec<(vertex::OutputName, PathBuf)>,
    /// Simulator limits, engine and threads.
    #[command(flatten)]
    pub sim: sim_args::SimArgs,
}

/// `agxc run --help`'s closing text: the input and output formats.
const RUN_HELP: &str = "\
Stages:
  compute   --groups X[,Y,Z]; prints each storage buffer and image.
  fragment  --size WxH [--clear R,G,B,A] [--varyings FILE] [--image OUT]; prints the first
            pixels of render target 0.
  vertex    --attribute LOCATION=FILE... [--vertices N] [--vertex-out SLOT=FILE]; prints the
            first vertices of every output.

Buffers: --buffer/--buffer-size bind storage or uniform buffers, whichever the shader declares at
the binding; raw little-endian bytes. --out [SET.]BINDING=FILE writes a buffer or an image back.

Images (--texture, --storage-image; --sampler for separate sampler objects):
  SHAPE    WxH | 2d:WxH | 1d:W | 3d:WxHxD | cube:S
  FORMAT   rgba8 | rgba16f | rgba32f | r32f | rgba32ui | rgba32i | r32ui | r32i
  FILTER   nearest | linear (default nearest);  WRAP  repeat | clamp | mirror | border
  keys     layers=N (array texture), levels=N|full, mip=none|nearest|linear (default nearest
           with several levels), lod-bias=F, min-lod=F, max-lod=F,
           compare=never|less|equal|lequal|greater|notequal|gequal|always
  FILE     raw texels: level 0, 1, ...; per level each slice (array layer; cube faces +X -X +Y
           -Y +Z -Z), each plane (3D), rows top to bottom; level l is max(1, extent >> l) per
           axis. A storage image with an empty FILE starts zero-filled.
  e.g.     --texture 0.1=env.bin,cube:8,rgba16f,linear,clamp,levels=full
           --storage-image 0.2=,16x16,rgba32f --out 0.2=result.bin

Vertex files: an attribute file holds four f32 per vertex (an integer attribute reads its value
converted toward zero); --vertex-out writes four f32 per vertex (integer outputs as their bit
pattern), point-size one f32 per vertex.

Varyings (fragment): per location in order, twelve f32: base[4], ddx[4], ddy[4], the value at
pixel centre (x, y) being base + ddx*(x+0.5) + ddy*(y+0.5); see the README for the extended
layout with raw words.";
