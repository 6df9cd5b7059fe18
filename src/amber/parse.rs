//! The AmberScript parser: script text to [`Command`]s, each carrying its line number.
//!
//! The grammar is google/amber's `docs/amber_script.md` (Apache-2.0), restricted to the subset
//! listed in [`super`]. Comments run from `#` to the end of a line, except inside shader
//! source; a shader's source runs up to a line holding only `END`. Anything outside the subset
//! is an error naming its line: a script is never run with a command ignored.

use super::format::{ElemType, Layout};

/// A parse error: the 1-based line and what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// Why.
    pub message: String,
}

type Result<T> = std::result::Result<T, ParseError>;

fn err<T>(line: usize, message: impl Into<String>) -> Result<T> {
    Err(ParseError {
        line,
        message: message.into(),
    })
}

/// A shader stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageKind {
    /// `vertex`
    Vertex,
    /// `fragment`
    Fragment,
    /// `compute`
    Compute,
}

/// How a shader is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShaderSource {
    /// Amber's built-in passthrough vertex shader.
    Passthrough,
    /// GLSL text.
    Glsl(String),
    /// SPIR-V assembly text.
    SpirvAsm(String),
    /// SPIR-V as hex bytes.
    SpirvHex(String),
}

/// `SHADER`.
#[derive(Clone, Debug)]
pub struct ShaderDef {
    /// Its name.
    pub name: String,
    /// Its stage.
    pub stage: StageKind,
    /// Its source.
    pub source: ShaderSource,
    /// `TARGET_ENV`, if given.
    pub target_env: Option<String>,
    /// Where it is declared.
    pub line: usize,
}

/// How a `BUFFER` is filled.
#[derive(Clone, Debug)]
pub enum Init {
    /// Nothing given (a colour attachment, sized when bound).
    None,
    /// `DATA ... END`: the value tokens with their lines.
    Data(Vec<(String, usize)>),
    /// `SIZE n FILL v`.
    Fill(u64, String),
    /// `SIZE n SERIES_FROM a INC_BY b`.
    Series(u64, String, String),
}

/// `BUFFER`.
#[derive(Clone, Debug)]
pub struct BufferDef {
    /// Its name.
    pub name: String,
    /// Its element type.
    pub ty: ElemType,
    /// Its contents.
    pub init: Init,
    /// Where it is declared.
    pub line: usize,
}

/// How a buffer is bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BindKind {
    /// `AS storage DESCRIPTOR_SET s BINDING b`
    Storage(u32, u32),
    /// `AS uniform DESCRIPTOR_SET s BINDING b`
    Uniform(u32, u32),
    /// `AS push_constant`
    PushConstant,
    /// `AS color LOCATION n`
    Color(u32),
}

/// `PIPELINE ... END`.
#[derive(Clone, Debug)]
pub struct PipelineDef {
    /// Its name.
    pub name: String,
    /// `compute` (true) or `graphics`.
    pub compute: bool,
    /// Attached shaders with their entry points.
    pub shaders: Vec<(String, String, usize)>,
    /// Bound buffers.
    pub binds: Vec<(String, BindKind, usize)>,
    /// `FRAMEBUFFER_SIZE`.
    pub framebuffer: [u32; 2],
    /// Where it is declared.
    pub line: usize,
}

/// A buffer comparison of `EXPECT buf IDX n OP values`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `EQ`
    Eq,
    /// `NE`
    Ne,
    /// `LT`
    Lt,
    /// `LE`
    Le,
    /// `GT`
    Gt,
    /// `GE`
    Ge,
}

/// A tolerance: a value, absolute or in percent of the expected value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// The amount.
    pub value: f64,
    /// `%` given.
    pub percent: bool,
}

/// What an `EXPECT` checks.
#[derive(Clone, Debug)]
pub enum Check {
    /// `IDX x y [SIZE w h] EQ_RGB|EQ_RGBA values [TOLERANCE ...]`
    Rect {
        /// Top-left pixel.
        pos: [u32; 2],
        /// Width and height.
        size: [u32; 2],
        /// Expected channels (3 or 4).
        rgba: Vec<f64>,
        /// Tolerances (empty: exact).
        tolerance: Vec<Tolerance>,
    },
    /// `IDX n [TOLERANCE ...] OP values`
    Values {
        /// Byte offset.
        offset: u64,
        /// The comparison.
        cmp: Cmp,
        /// Expected values (as written).
        values: Vec<String>,
        /// Tolerances (only with `EQ`).
        tolerance: Vec<Tolerance>,
    },
    /// `EQ_BUFFER other`
    EqBuffer(String),
    /// `RMSE_BUFFER other TOLERANCE t`
    RmseBuffer(String, f64),
}

/// `EXPECT`.
#[derive(Clone, Debug)]
pub struct Expect {
    /// The buffer checked.
    pub buffer: String,
    /// The check.
    pub check: Check,
    /// Where it is written.
    pub line: usize,
    /// The line's text, for reports.
    pub text: String,
}

/// A command of the script.
#[derive(Clone, Debug)]
pub enum Command {
    /// `SHADER`
    Shader(ShaderDef),
    /// `BUFFER`
    Buffer(BufferDef),
    /// `PIPELINE`
    Pipeline(Box<PipelineDef>),
    /// `CLEAR_COLOR pipe r g b a`
    ClearColor(String, [f64; 4], usize),
    /// `CLEAR pipe`
    Clear(String, usize),
    /// `RUN pipe x y z`
    RunCompute(String, [u32; 3], usize),
    /// `RUN pipe DRAW_RECT POS x y SIZE w h`
    RunRect(String, [f64; 2], [f64; 2], usize),
    /// `REPEAT n ... END`
    Repeat(u32, Vec<Command>),
    /// `EXPECT`
    Expect(Box<Expect>),
}

/// One token and its line.
#[derive(Clone, Debug)]
struct Tok {
    text: String,
    line: usize,
}

/// The device features and extensions agxc implements: a script asking for another is refused
/// rather than run on assumptions.
const FEATURES: &[&str] = &[];
const EXTENSIONS: &[&str] = &[
    // Only changes how SPIR-V spells storage buffers, which the front end reads.
    "VK_KHR_storage_buffer_storage_class",
    // Instance-level query plumbing; no effect on a shader.
    "VK_KHR_get_physical_device_properties2",
];

/// Splits the script into tokens, capturing shader sources whole.
fn tokenize(text: &str) -> Result<(Vec<Tok>, Vec<String>)> {
    let mut toks = Vec::new();
    let mut sources = Vec::new();
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l)).peekable();
    let mut first = true;
    while let Some((n, raw)) = lines.next() {
        if first {
            first = false;
            if raw.trim_end() != "#!amber" {
                return err(
                    n,
                    "not an AmberScript file: the first line must be `#!amber` (VkScript is not supported)",
                );
            }
            continue;
        }
        let code = raw.split('#').next().unwrap_or("");
        let words: Vec<&str> = code.split_whitespace().collect();
        for w in &words {
            toks.push(Tok {
                text: (*w).to_string(),
                line: n,
            });
        }
        if words.first() == Some(&"SHADER") && words.get(3).is_some_and(|f| *f != "PASSTHROUGH") {
            let mut src = String::new();
            loop {
                let Some((_, l)) = lines.next() else {
                    return err(n, "shader source without its closing `END`");
                };
                if l.trim() == "END" {
                    break;
                }
                src += l;
                src.push('\n');
            }
            // The source is referred to by a placeholder token after the header.
            toks.push(Tok {
                text: format!("\u{0}SRC{}", sources.len()),
                line: n,
            });
            sources.push(src);
        }
    }
    Ok((toks, sources))
}

struct Parser {
    toks: Vec<Tok>,
    sources: Vec<String>,
    pos: usize,
    lines: Vec<String>,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    /// The next token if it is on `line`.
    fn peek_on(&self, line: usize) -> Option<&str> {
        self.peek()
            .filter(|t| t.line == line)
            .map(|t| t.text.as_str())
    }

    fn next_on(&mut self, line: usize, what: &str) -> Result<String> {
        match self.peek_on(line) {
            Some(t) => {
                let t = t.to_string();
                self.pos += 1;
                Ok(t)
            }
            None => err(line, format!("expected {what}")),
        }
    }

    fn keyword(&mut self, line: usize, kw: &str) -> Result<()> {
        let t = self.next_on(line, &format!("`{kw}`"))?;
        if t != kw {
            return err(line, format!("expected `{kw}`, found `{t}`"));
        }
        Ok(())
    }

    fn number<T: std::str::FromStr>(&mut self, line: usize, what: &str) -> Result<T> {
        let t = self.next_on(line, what)?;
        t.parse()
            .or_else(|_| err(line, format!("{what}: `{t}` is not a valid number")))
    }

    fn end_of_line(&self, line: usize) -> Result<()> {
        match self.peek_on(line) {
            Some(t) => err(line, format!("unexpected `{t}`")),
            None => Ok(()),
        }
    }

    fn commands(&mut self, in_repeat: bool) -> Result<Vec<Command>> {
        let mut out = Vec::new();
        while let Some(tok) = self.peek().cloned() {
            self.pos += 1;
            let line = tok.line;
            let cmd = match tok.text.as_str() {
                "END" if in_repeat => return Ok(out),
                "SHADER" => Command::Shader(self.shader(line)?),
                "BUFFER" => Command::Buffer(self.buffer(line)?),
                "PIPELINE" => Command::Pipeline(Box::new(self.pipeline(line)?)),
                "CLEAR_COLOR" => {
                    let pipe = self.next_on(line, "a pipeline name")?;
                    let mut c = [0.0; 4];
                    for v in &mut c {
                        *v = self.number(line, "a colour channel (0-255)")?;
                    }
                    Command::ClearColor(pipe, c, line)
                }
                "CLEAR" => Command::Clear(self.next_on(line, "a pipeline name")?, line),
                "RUN" => self.run(line)?,
                "REPEAT" => {
                    let n = self.number(line, "a repeat count")?;
                    self.end_of_line(line)?;
                    Command::Repeat(n, self.commands(true)?)
                }
                "EXPECT" => Command::Expect(Box::new(self.expect(line)?)),
                "DEVICE_FEATURE" => {
                    let f = self.next_on(line, "a feature name")?;
                    if !FEATURES.contains(&f.as_str()) {
                        return err(
                            line,
                            format!("device feature `{f}` is not supported by agxc"),
                        );
                    }
                    continue;
                }
                "DEVICE_EXTENSION" | "INSTANCE_EXTENSION" => {
                    let e = self.next_on(line, "an extension name")?;
                    if !EXTENSIONS.contains(&e.as_str()) {
                        return err(line, format!("extension `{e}` is not supported by agxc"));
                    }
                    continue;
                }
                other => return err(line, format!("unsupported command `{other}`")),
            };
            self.end_of_line(line)?;
            out.push(cmd);
        }
        if in_repeat {
            return err(
                self.toks.last().map_or(0, |t| t.line),
                "REPEAT without its `END`",
            );
        }
        Ok(out)
    }

    fn shader(&mut self, line: usize) -> Result<ShaderDef> {
        let stage = match self.next_on(line, "a shader stage")?.as_str() {
            "vertex" => StageKind::Vertex,
            "fragment" => StageKind::Fragment,
            "compute" => StageKind::Compute,
            s => return err(line, format!("unsupported shader stage `{s}`")),
        };
        let name = self.next_on(line, "a shader name")?;
        let format = self.next_on(line, "a shader format")?;
        let mut target_env = None;
        if self.peek_on(line) == Some("TARGET_ENV") {
            self.pos += 1;
            target_env = Some(self.next_on(line, "a target environment")?);
        }
        let source = if format == "PASSTHROUGH" {
            if stage != StageKind::Vertex {
                return err(line, "PASSTHROUGH is a vertex shader");
            }
            ShaderSource::Passthrough
        } else {
            let placeholder = self.next_on(line, "the shader source")?;
            let index: usize = placeholder
                .strip_prefix("\u{0}SRC")
                .and_then(|i| i.parse().ok())
                .ok_or_else(|| ParseError {
                    line,
                    message: format!("unexpected `{placeholder}`"),
                })?;
            let Some(src) = self.sources.get(index).cloned() else {
                return err(line, format!("unexpected `{placeholder}`"));
            };
            match format.as_str() {
                "GLSL" => ShaderSource::Glsl(src),
                "SPIRV-ASM" => ShaderSource::SpirvAsm(src),
                "SPIRV-HEX" => ShaderSource::SpirvHex(src),
                f => return err(line, format!("unsupported shader format `{f}`")),
            }
        };
        Ok(ShaderDef {
            name,
            stage,
            source,
            target_env,
            line,
        })
    }

    fn buffer(&mut self, line: usize) -> Result<BufferDef> {
        let name = self.next_on(line, "a buffer name")?;
        let mut ty = match self.next_on(line, "`DATA_TYPE` or `FORMAT`")?.as_str() {
            "DATA_TYPE" => {
                let t = self.next_on(line, "a data type")?;
                ElemType::data_type(&t).map_err(|m| ParseError { line, message: m })?
            }
            "FORMAT" => {
                let f = self.next_on(line, "a format")?;
                ElemType::format(&f).map_err(|m| ParseError { line, message: m })?
            }
            t => {
                return err(
                    line,
                    format!("expected `DATA_TYPE` or `FORMAT`, found `{t}`"),
                )
            }
        };
        let mut init = Init::None;
        while let Some(t) = self.peek_on(line).map(str::to_string) {
            self.pos += 1;
            match t.as_str() {
                "STD140" => ty.layout = ty.layout.with(Layout::Std140),
                "STD430" => ty.layout = ty.layout.with(Layout::Std430),
                "SIZE" => {
                    let n = self.number(line, "a size")?;
                    init = match self.next_on(line, "`FILL` or `SERIES_FROM`")?.as_str() {
                        "FILL" => Init::Fill(n, self.next_on(line, "a fill value")?),
                        "SERIES_FROM" => {
                            let from = self.next_on(line, "a start value")?;
                            self.keyword(line, "INC_BY")?;
                            Init::Series(n, from, self.next_on(line, "an increment")?)
                        }
                        t => return err(line, format!("unsupported buffer initializer `{t}`")),
                    };
                }
                "DATA" => {
                    let mut values = Vec::new();
                    loop {
                        let Some(tok) = self.peek().cloned() else {
                            return err(line, "DATA without its `END`");
                        };
                        self.pos += 1;
                        if tok.text == "END" {
                            // END closes the command: nothing else may follow on its line.
                            self.end_of_line(tok.line)?;
                            break;
                        }
                        values.push((tok.text, tok.line));
                    }
                    init = Init::Data(values);
                    return Ok(BufferDef {
                        name,
                        ty,
                        init,
                        line,
                    });
                }
                t => return err(line, format!("unsupported BUFFER option `{t}`")),
            }
        }
        Ok(BufferDef {
            name,
            ty,
            init,
            line,
        })
    }

    fn pipeline(&mut self, line: usize) -> Result<PipelineDef> {
        let compute = match self.next_on(line, "`compute` or `graphics`")?.as_str() {
            "compute" => true,
            "graphics" => false,
            t => return err(line, format!("unsupported pipeline type `{t}`")),
        };
        let mut p = PipelineDef {
            name: self.next_on(line, "a pipeline name")?,
            compute,
            shaders: Vec::new(),
            binds: Vec::new(),
            framebuffer: [250, 250],
            line,
        };
        self.end_of_line(line)?;
        loop {
            let Some(tok) = self.peek().cloned() else {
                return err(line, "PIPELINE without its `END`");
            };
            self.pos += 1;
            let l = tok.line;
            match tok.text.as_str() {
                "END" => return Ok(p),
                "ATTACH" => {
                    let name = self.next_on(l, "a shader name")?;
                    let mut entry = "main".to_string();
                    if self.peek_on(l) == Some("ENTRY_POINT") {
                        self.pos += 1;
                        entry = self.next_on(l, "an entry point name")?;
                    }
                    p.shaders.push((name, entry, l));
                }
                "FRAMEBUFFER_SIZE" => {
                    p.framebuffer = [self.number(l, "a width")?, self.number(l, "a height")?];
                }
                "BIND" => {
                    self.keyword(l, "BUFFER")?;
                    let name = self.next_on(l, "a buffer name")?;
                    self.keyword(l, "AS")?;
                    let kind = match self.next_on(l, "a binding kind")?.as_str() {
                        "storage" | "uniform" => {
                            let uniform = self.toks[self.pos - 1].text == "uniform";
                            self.keyword(l, "DESCRIPTOR_SET")?;
                            let s = self.number(l, "a descriptor set")?;
                            self.keyword(l, "BINDING")?;
                            let b = self.number(l, "a binding")?;
                            if uniform {
                                BindKind::Uniform(s, b)
                            } else {
                                BindKind::Storage(s, b)
                            }
                        }
                        "push_constant" => BindKind::PushConstant,
                        "color" => {
                            self.keyword(l, "LOCATION")?;
                            BindKind::Color(self.number(l, "a location")?)
                        }
                        k => return err(l, format!("unsupported binding kind `{k}`")),
                    };
                    p.binds.push((name, kind, l));
                }
                t => return err(l, format!("unsupported PIPELINE command `{t}`")),
            }
            self.end_of_line(l)?;
        }
    }

    fn run(&mut self, line: usize) -> Result<Command> {
        let pipe = self.next_on(line, "a pipeline name")?;
        if self.peek_on(line) == Some("DRAW_RECT") {
            self.pos += 1;
            self.keyword(line, "POS")?;
            let pos = [self.number(line, "x")?, self.number(line, "y")?];
            self.keyword(line, "SIZE")?;
            let size = [
                self.number(line, "a width")?,
                self.number(line, "a height")?,
            ];
            return Ok(Command::RunRect(pipe, pos, size, line));
        }
        let groups = [
            self.number(line, "a workgroup count x")?,
            self.number(line, "a workgroup count y")?,
            self.number(line, "a workgroup count z")?,
        ];
        Ok(Command::RunCompute(pipe, groups, line))
    }

    fn tolerances(&mut self, line: usize) -> Result<Vec<Tolerance>> {
        let mut out = Vec::new();
        while let Some(t) = self.peek_on(line) {
            let (num, percent) = match t.strip_suffix('%') {
                Some(n) => (n, true),
                None => (t, false),
            };
            let Ok(value) = num.parse::<f64>() else { break };
            out.push(Tolerance { value, percent });
            self.pos += 1;
        }
        if out.is_empty() || out.len() > 4 {
            return err(line, "TOLERANCE needs one to four values");
        }
        Ok(out)
    }

    fn expect(&mut self, line: usize) -> Result<Expect> {
        let buffer = self.next_on(line, "a buffer name")?;
        let text = self
            .lines
            .get(line - 1)
            .map_or("", |s| s.trim())
            .to_string();
        let check = match self
            .next_on(line, "`IDX`, `EQ_BUFFER` or `RMSE_BUFFER`")?
            .as_str()
        {
            "EQ_BUFFER" => Check::EqBuffer(self.next_on(line, "a buffer name")?),
            "RMSE_BUFFER" => {
                let other = self.next_on(line, "a buffer name")?;
                self.keyword(line, "TOLERANCE")?;
                Check::RmseBuffer(other, self.number(line, "a tolerance")?)
            }
            "IDX" => self.expect_idx(line)?,
            t => return err(line, format!("unsupported EXPECT form `{t}`")),
        };
        Ok(Expect {
            buffer,
            check,
            line,
            text,
        })
    }

    fn expect_idx(&mut self, line: usize) -> Result<Check> {
        let first: u64 = self.number(line, "an index")?;
        let mut tolerance = Vec::new();
        match self.peek_on(line) {
            Some(t) if t.parse::<u32>().is_ok() => {
                let y = self.number(line, "y")?;
                let mut size = [1, 1];
                if self.peek_on(line) == Some("SIZE") {
                    self.pos += 1;
                    size = [
                        self.number(line, "a width")?,
                        self.number(line, "a height")?,
                    ];
                }
                let channels = match self.next_on(line, "`EQ_RGB` or `EQ_RGBA`")?.as_str() {
                    "EQ_RGB" => 3,
                    "EQ_RGBA" => 4,
                    t => return err(line, format!("unsupported image comparison `{t}`")),
                };
                let mut rgba = Vec::new();
                for _ in 0..channels {
                    rgba.push(self.number(line, "a colour channel")?);
                }
                if self.peek_on(line) == Some("TOLERANCE") {
                    self.pos += 1;
                    tolerance = self.tolerances(line)?;
                }
                let x = u32::try_from(first).or_else(|_| err(line, "x out of range"))?;
                Ok(Check::Rect {
                    pos: [x, y],
                    size,
                    rgba,
                    tolerance,
                })
            }
            _ => {
                if self.peek_on(line) == Some("TOLERANCE") {
                    self.pos += 1;
                    tolerance = self.tolerances(line)?;
                }
                let cmp = match self.next_on(line, "a comparison")?.as_str() {
                    "EQ" => Cmp::Eq,
                    "NE" => Cmp::Ne,
                    "LT" => Cmp::Lt,
                    "LE" => Cmp::Le,
                    "GT" => Cmp::Gt,
                    "GE" => Cmp::Ge,
                    t => return err(line, format!("unsupported comparison `{t}`")),
                };
                if !tolerance.is_empty() && cmp != Cmp::Eq {
                    return err(line, "TOLERANCE applies to EQ only");
                }
                let mut values = Vec::new();
                while let Some(t) = self.peek_on(line) {
                    values.push(t.to_string());
                    self.pos += 1;
                }
                if values.is_empty() {
                    return err(line, "EXPECT without values");
                }
                Ok(Check::Values {
                    offset: first,
                    cmp,
                    values,
                    tolerance,
                })
            }
        }
    }
}

/// Parses a whole script.
pub fn parse(text: &str) -> Result<Vec<Command>> {
    let (toks, sources) = tokenize(text)?;
    let mut p = Parser {
        toks,
        sources,
        pos: 0,
        lines: text.lines().map(str::to_string).collect(),
    };
    p.commands(false)
}
