//! Printing functions in the text form.
//!
//! The printer never panics, even on a function that does not verify (dangling entity numbers,
//! blocks owned twice, cycles): verifier messages and debug dumps print broken IR too. What it
//! prints for such functions need not parse back.

use super::syntax;
use crate::ir::effects::EffectOp;
use crate::ir::entities::{Block, Inst, Value};
use crate::ir::function::{ExecutionModes, Function, InstData, Op, Stage};
use crate::ir::verify::MAX_NESTING;
use core::fmt::{self, Write};
use cranelift_entity::EntitySet;

/// Indentation per nesting level.
const INDENT: usize = 4;

/// A printable view of a function: its text form, optionally with a comment after each
/// instruction naming it (`; inst7`) and/or carrying a caller's annotation. Comments do not
/// change what the text parses to.
///
/// ```
/// use agxc_egraph::ir::{parse_function, OpRegistry};
///
/// let text = "function @f compute local_size(1, 1, 1) {\nblock0:\n    v0:i32 = const 1\n    return\n}\n";
/// let func = parse_function(text, &OpRegistry::new()).unwrap();
/// assert_eq!(func.to_string(), text);
/// let dump = func.display().inst_names(true).to_string();
/// assert!(dump.contains("v0:i32 = const 1  ; inst0\n"));
/// ```
pub struct FunctionDisplay<'a> {
    func: &'a Function,
    inst_names: bool,
    annotate: Option<&'a dyn Fn(Inst) -> Option<String>>,
}

impl<'a> FunctionDisplay<'a> {
    /// Adds (or not) `; instN` after every instruction line.
    pub fn inst_names(mut self, on: bool) -> Self {
        self.inst_names = on;
        self
    }

    /// Adds the annotation `f` returns for an instruction as a comment after its line.
    pub fn annotate(mut self, f: &'a dyn Fn(Inst) -> Option<String>) -> Self {
        self.annotate = Some(f);
        self
    }
}

impl Function {
    /// The text form, with options (see [`FunctionDisplay`]); `Display` prints it plain.
    pub fn display(&self) -> FunctionDisplay<'_> {
        FunctionDisplay {
            func: self,
            inst_names: false,
            annotate: None,
        }
    }

    /// One instruction's line of the text form, without indentation, comments or the `{` that
    /// opens a structured instruction's blocks (`v5:f32 = fadd v3, v4`, `v9:f32 = if v8`).
    pub fn display_inst(&self, inst: Inst) -> InstDisplay<'_> {
        InstDisplay { func: self, inst }
    }
}

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.display().fmt(f)
    }
}

/// One instruction's line; see [`Function::display_inst`].
pub struct InstDisplay<'a> {
    func: &'a Function,
    inst: Inst,
}

impl fmt::Display for InstDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.func.insts.get(self.inst) {
            Some(data) => write_inst(f, self.func, data),
            None => write!(f, "<{} does not exist>", self.inst),
        }
    }
}

impl fmt::Display for FunctionDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_header(f, self.func)?;
        let mut printer = Printer {
            out: f,
            opts: self,
            printed: EntitySet::new(),
        };
        printer.block(self.func.entry, 0)?;
        writeln!(printer.out, "}}")
    }
}

fn write_header(f: &mut fmt::Formatter<'_>, func: &Function) -> fmt::Result {
    f.write_str("function @")?;
    write_name(f, &func.name)?;
    write!(f, " {}", func.stage.name())?;
    if let Stage::Geometry(g) = func.stage {
        write!(
            f,
            " {}({}) {}({}) {}({}) {}({})",
            syntax::GEOMETRY_INPUT,
            g.input.name(),
            syntax::GEOMETRY_OUTPUT,
            g.output.name(),
            syntax::GEOMETRY_MAX_VERTICES,
            g.max_vertices,
            syntax::GEOMETRY_INVOCATIONS,
            g.invocations
        )?;
    }
    let modes = &func.modes;
    let default = ExecutionModes::default();
    if func.stage == Stage::Compute || modes.local_size != default.local_size {
        let [x, y, z] = modes.local_size;
        write!(f, " local_size({x}, {y}, {z})")?;
    }
    if func.shared_memory > 0 {
        write!(f, " shared({})", func.shared_memory)?;
    }
    if func.push_constant_bytes > 0 {
        write!(f, " push_constants({})", func.push_constant_bytes)?;
    }
    if func.private_bytes > 0 {
        write!(f, " private({})", func.private_bytes)?;
    }
    if !func.constant_data.is_empty() {
        // Little-endian words in hex; `parse` reads them back exactly.
        f.write_str(" constants(")?;
        for (i, w) in func.constant_data.chunks(4).enumerate() {
            let mut b = [0u8; 4];
            b[..w.len()].copy_from_slice(w);
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}0x{:08x}", u32::from_le_bytes(b))?;
        }
        f.write_str(")")?;
    }
    let flags = [
        (
            modes.origin_upper_left != default.origin_upper_left,
            syntax::ORIGIN_LOWER_LEFT,
        ),
        (
            modes.pixel_center_integer != default.pixel_center_integer,
            syntax::PIXEL_CENTER_INTEGER,
        ),
        (
            modes.depth_replacing != default.depth_replacing,
            syntax::DEPTH_REPLACING,
        ),
        (
            modes.early_fragment_tests != default.early_fragment_tests,
            syntax::EARLY_FRAGMENT_TESTS,
        ),
    ];
    for (differs, word) in flags {
        if differs {
            write!(f, " {word}")?;
        }
    }
    writeln!(f, " {{")
}

/// Writes a function name bare if it is an identifier, else as a quoted string.
fn write_name(f: &mut fmt::Formatter<'_>, name: &str) -> fmt::Result {
    if syntax::is_identifier(name) {
        return f.write_str(name);
    }
    f.write_char('"')?;
    for c in name.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\t' => f.write_str("\\t")?,
            c if c.is_control() => write!(f, "\\u{{{:x}}}", c as u32)?,
            c => f.write_char(c)?,
        }
    }
    f.write_char('"')
}

struct Printer<'a, 'f, 'o> {
    out: &'a mut fmt::Formatter<'f>,
    opts: &'a FunctionDisplay<'o>,
    printed: EntitySet<Block>,
}

impl Printer<'_, '_, '_> {
    fn indent(&mut self, level: usize) -> fmt::Result {
        write!(self.out, "{:1$}", "", level * INDENT)
    }

    /// Prints a block's label and instructions; the label goes at `level`, the instructions one
    /// level deeper.
    fn block(&mut self, block: Block, level: usize) -> fmt::Result {
        self.indent(level)?;
        let func = self.opts.func;
        let Some(data) = func.blocks.get(block) else {
            return writeln!(self.out, "{block}:  ; does not exist");
        };
        if !self.printed.insert(block) {
            return writeln!(self.out, "{block}:  ; printed above");
        }
        write!(self.out, "{block}")?;
        if !data.params.is_empty() {
            self.out.write_char('(')?;
            write_decls(self.out, func, &data.params)?;
            self.out.write_char(')')?;
        }
        writeln!(self.out, ":")?;
        if level >= MAX_NESTING {
            self.indent(level + 1)?;
            return writeln!(
                self.out,
                "; nested deeper than {MAX_NESTING} levels: not printed"
            );
        }
        for &inst in &data.insts {
            self.inst(inst, level + 1)?;
        }
        Ok(())
    }

    fn inst(&mut self, inst: Inst, level: usize) -> fmt::Result {
        self.indent(level)?;
        let func = self.opts.func;
        let Some(data) = func.insts.get(inst) else {
            return writeln!(self.out, "; {inst} does not exist");
        };
        write_inst(self.out, func, data)?;
        if !data.blocks.is_empty() {
            self.out.write_str(" {")?;
        }
        self.comment(inst)?;
        writeln!(self.out)?;
        for (i, &child) in data.blocks.iter().enumerate() {
            if i > 0 {
                self.indent(level)?;
                writeln!(self.out, "}} else {{")?;
            }
            self.block(child, level)?;
        }
        if !data.blocks.is_empty() {
            self.indent(level)?;
            writeln!(self.out, "}}")?;
        }
        Ok(())
    }

    fn comment(&mut self, inst: Inst) -> fmt::Result {
        let note = self.opts.annotate.and_then(|f| f(inst));
        match (self.opts.inst_names, note) {
            (false, None) => Ok(()),
            (true, None) => write!(self.out, "  ; {inst}"),
            (false, Some(note)) => write!(self.out, "  ; {}", one_line(&note)),
            (true, Some(note)) => write!(self.out, "  ; {inst}: {}", one_line(&note)),
        }
    }
}

/// Comments end at the line's end, so an annotation's own line breaks become spaces.
fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// `vN:TYPE` declarations, comma-separated.
fn write_decls(f: &mut dyn Write, func: &Function, values: &[Value]) -> fmt::Result {
    for (i, &v) in values.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        match func.values.get(v) {
            Some(data) => write!(f, "{v}:{}", data.ty)?,
            None => write!(f, "{v}:?")?,
        }
    }
    Ok(())
}

fn write_values(f: &mut dyn Write, values: &[Value]) -> fmt::Result {
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{v}")?;
    }
    Ok(())
}

/// Writes `RESULTS = MNEMONIC ATTRIBUTES OPERANDS`.
pub(super) fn write_inst(f: &mut dyn Write, func: &Function, data: &InstData) -> fmt::Result {
    if !data.results.is_empty() {
        write_decls(f, func, &data.results)?;
        f.write_str(" = ")?;
    }
    f.write_str(data.op.name())?;
    if let Op::Effect(EffectOp::Derivative(_, p)) = data.op {
        if let Some(suffix) = syntax::precision(p) {
            write!(f, ".{suffix}")?;
        }
    }
    for (flag, suffix) in syntax::INST_FLAGS {
        if data.flags.contains(flag) {
            write!(f, ".{suffix}")?;
        }
    }
    let mut args: &[Value] = &data.args;
    match data.op {
        Op::Const(c) => write!(f, " {c}")?,
        Op::Effect(effect) => args = write_effect_attrs(f, &effect, args)?,
        _ => {}
    }
    if !args.is_empty() {
        f.write_char(' ')?;
        write_values(f, args)?;
    }
    Ok(())
}

/// Writes an effect's attributes (and, for memory accesses, the bracketed address); returns
/// the operands still to print.
fn write_effect_attrs<'v>(
    f: &mut dyn Write,
    effect: &EffectOp,
    args: &'v [Value],
) -> Result<&'v [Value], fmt::Error> {
    match *effect {
        EffectOp::Load(access) | EffectOp::Store(access) | EffectOp::Atomic(_, access) => {
            if let EffectOp::Atomic(op, _) = effect {
                write!(f, " {}", op.name())?;
            }
            write!(f, " {} [", syntax::space(access.space))?;
            let rest = match args.split_first() {
                Some((addr, rest)) => {
                    write!(f, "{addr}")?;
                    rest
                }
                None => args,
            };
            if access.offset != 0 {
                write!(f, " + {}", access.offset)?;
            }
            f.write_char(']')?;
            if !rest.is_empty() {
                f.write_char(',')?;
            }
            return Ok(rest);
        }
        EffectOp::BufferSize(b) => write!(f, " {b}")?,
        EffectOp::Barrier(k) => write!(f, " {}", syntax::barrier(k))?,
        EffectOp::Builtin(b) => write!(f, " {}", syntax::builtin(b))?,
        EffectOp::Input(slot) => write!(
            f,
            " {}.{} {}",
            slot.location,
            syntax::component(slot.component),
            syntax::interp(slot.interp)
        )?,
        EffectOp::Output(slot) | EffectOp::VertexInput(slot) => {
            write!(f, " {}", syntax::output(slot))?
        }
        EffectOp::EmitVertex(stream) | EffectOp::EndPrimitive(stream) => write!(f, " {stream}")?,
        EffectOp::Derivative(..) | EffectOp::Demote => {}
        EffectOp::Sample(s) => {
            write!(
                f,
                " {} tex{} sampler{} {}",
                syntax::target(s.target),
                s.texture,
                s.sampler,
                syntax::lod(s.lod)
            )?;
            for (on, word) in [
                (s.proj, "proj"),
                (s.shadow, "shadow"),
                (s.min_lod, "min_lod"),
            ] {
                if on {
                    write!(f, " {word}")?;
                }
            }
            write_texel_offset(f, s.offset)?;
        }
        EffectOp::Fetch(op) => {
            write!(f, " {} tex{}", syntax::target(op.target), op.texture)?;
            write_texel_offset(f, op.offset)?;
        }
        EffectOp::TexSize(op) => write!(f, " {} tex{}", syntax::target(op.target), op.texture)?,
        EffectOp::TexLevels(b) => write!(f, " tex{b}")?,
        EffectOp::ImageLoad(op) | EffectOp::ImageStore(op) | EffectOp::ImageSize(op) => write!(
            f,
            " {} {} img{}",
            syntax::target(op.target),
            op.format.name(),
            op.image
        )?,
    }
    Ok(args)
}

fn write_texel_offset(f: &mut dyn Write, offset: [i8; 3]) -> fmt::Result {
    if offset != [0; 3] {
        let [x, y, z] = offset;
        write!(f, " offset({x}, {y}, {z})")?;
    }
    Ok(())
}
