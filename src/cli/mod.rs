//! The `agxc` command line, following the spirv-tools conventions: one program with
//! subcommands, SHADER a SPIR-V binary or TGSI (or agxc IR) text told apart by content, errors as
//! one line on stderr with a non-zero exit status, progress through `RUST_LOG`.

pub mod asm;
pub mod resources;
pub mod run;
pub mod sim_args;
pub mod spec;

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
    /// Print the code after these passes to stderr (`all`, or names from `lift`, `verify`,
    /// the optimizer's and the backend's passes; an unknown name lists them). Default: the
    /// `AGXC_DUMP` environment variable, read the same way.
    #[arg(long, value_name = "PASS[,PASS]|all", value_parser = dump_passes)]
    pub dump: Option<agxc::DumpPasses>,
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
    /// A combined image and sampler: one mip level of raw texels.
    #[arg(
        long = "texture",
        value_name = "[SET.]BINDING=FILE,WxH,rgba8|rgba32f,nearest|linear,repeat|clamp|mirror",
        value_parser = spec::texture
    )]
    pub textures: Vec<spec::TextureSpec>,
    /// Write a buffer's final contents to FILE.
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
    /// Simulator limits, engine and threads.
    #[command(flatten)]
    pub sim: sim_args::SimArgs,
}
