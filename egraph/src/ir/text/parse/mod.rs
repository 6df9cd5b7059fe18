//! The text-form parser: header, blocks and entity numbering.
//!
//! The parser is syntactic: it checks the grammar, resolves names and entity numbers, and leaves
//! typing, scoping and structure to the verifier (so a malformed function can be written as text
//! and checked). It rejects what it cannot represent: unknown words, malformed literals, a value
//! or block defined twice, and a value used but defined nowhere.
//!
//! Entity numbers are preserved: `v12` is `Value` 12 of the parsed function and `block3` is
//! `Block` 3; numbers the text skips become placeholders (`ValueDef::Undefined` values, empty
//! blocks without a parent) that nothing refers to. Instructions are numbered in text order.

mod inst;

use super::error::{ParseError, ParseErrorKind};
use super::lex::{lex, Pos, Tok, Token};
use super::syntax;
use crate::ir::custom::OpRegistry;
use crate::ir::entities::{Block, Inst, Value};
use crate::ir::function::{BlockData, Function, Stage, ValueData, ValueDef};
use crate::ir::geometry::{GeometryModes, InputPrimitive, OutputPrimitive};
use crate::ir::types::Type;
use cranelift_entity::EntityRef;

/// The largest entity number the parser accepts. Entity numbers are preserved, so a number
/// allocates every entity below it; the limit keeps a short text from allocating gigabytes.
pub const MAX_ENTITY: u32 = 1 << 20;

/// Parses one function in the text form.
///
/// `registry` names the target operations the text may use. Every error carries the line and
/// column where it was found. The result is not verified: call [`verify`](crate::ir::verify)
/// to check types, scoping and structure.
///
/// ```
/// use agxc_egraph::ir::{parse_function, verify, OpRegistry};
///
/// let text = "\
/// function @double compute local_size(64, 1, 1) {
/// block0:
///     v0:i32 = builtin global_id.x
///     v1:i32 = const 2
///     v2:i32 = ishl v0, v1
///     v3:f32 = load storage(0, 0) [v2]
///     v4:f32 = fadd v3, v3
///     store storage(0, 1) [v2], v4
///     return
/// }
/// ";
/// let func = parse_function(text, &OpRegistry::new()).unwrap();
/// verify(&func).unwrap();
/// assert_eq!(func.to_string(), text);
///
/// let err = parse_function("function @f compute {\nblock0:\n    v0:f33 = const 1\n", &OpRegistry::new())
///     .unwrap_err();
/// assert_eq!(err.to_string(), "3:8: unknown type `f33`");
/// ```
pub fn parse_function(text: &str, registry: &OpRegistry) -> Result<Function, ParseError> {
    let mut parser = Parser {
        toks: lex(text)?,
        next: 0,
        registry,
        func: Function::new("", Stage::Compute),
        value_lines: Vec::new(),
        block_lines: Vec::new(),
        uses: Vec::new(),
    };
    parser.function()?;
    Ok(parser.func)
}

pub(super) struct Parser<'a, 'r> {
    toks: Vec<Token<'a>>,
    next: usize,
    registry: &'r OpRegistry,
    func: Function,
    /// The line defining each value (by index), if any has yet.
    value_lines: Vec<Option<u32>>,
    /// The line of each block's label (by index), if any has yet.
    block_lines: Vec<Option<u32>>,
    /// Every operand, in text order, to check that each is defined somewhere.
    uses: Vec<(Value, Pos)>,
}

impl<'a> Parser<'a, '_> {
    // ---- tokens

    fn peek(&self) -> &Tok<'a> {
        self.peek_at(0)
    }

    fn peek_at(&self, n: usize) -> &Tok<'a> {
        // The lexer always ends the stream with `Eof`, and `bump` never moves past it.
        let last = self.toks.len() - 1;
        &self.toks[(self.next + n).min(last)].tok
    }

    fn here(&self) -> Pos {
        self.toks[self.next.min(self.toks.len() - 1)].pos
    }

    fn bump(&mut self) -> Token<'a> {
        let tok = self.toks[self.next.min(self.toks.len() - 1)].clone();
        if self.next < self.toks.len() - 1 {
            self.next += 1;
        }
        tok
    }

    fn expected(&self, expected: &'static str) -> ParseError {
        self.here().error(ParseErrorKind::Expected {
            expected,
            found: self.peek().describe(),
        })
    }

    fn eat_punct(&mut self, c: char) -> bool {
        if *self.peek() == Tok::Punct(c) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn expect_punct(&mut self, c: char, expected: &'static str) -> Result<(), ParseError> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            Err(self.expected(expected))
        }
    }

    fn word(&mut self, expected: &'static str) -> Result<(&'a str, Pos), ParseError> {
        match *self.peek() {
            Tok::Word(w) => {
                let pos = self.bump().pos;
                Ok((w, pos))
            }
            _ => Err(self.expected(expected)),
        }
    }

    fn peek_word(&self) -> Option<&'a str> {
        match *self.peek() {
            Tok::Word(w) => Some(w),
            _ => None,
        }
    }

    fn eat_word(&mut self, w: &str) -> bool {
        if self.peek_word() == Some(w) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn keyword(&mut self, kw: &'static str, expected: &'static str) -> Result<(), ParseError> {
        if self.peek_word() == Some(kw) {
            self.bump();
            Ok(())
        } else {
            Err(self.expected(expected))
        }
    }

    fn end_of_line(&mut self) -> Result<(), ParseError> {
        match self.peek() {
            Tok::Newline => {
                self.bump();
                Ok(())
            }
            _ => Err(self.expected("end of line")),
        }
    }

    fn skip_newlines(&mut self) {
        while *self.peek() == Tok::Newline {
            self.bump();
        }
    }

    /// `(N)`: the byte size of a function attribute (`shared(N)`, `private(N)`, ...).
    fn paren_u32(&mut self, what: &'static str) -> Result<u32, ParseError> {
        self.expect_punct('(', "`(`")?;
        let n = self.u32(what)?;
        self.expect_punct(')', "`)`")?;
        Ok(n)
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, ParseError> {
        let (w, pos) = self.word(what)?;
        parse_decimal(w).ok_or_else(|| {
            pos.error(ParseErrorKind::BadNumber {
                text: w.into(),
                what,
            })
        })
    }

    // ---- entities

    /// Reads `PREFIXn`, checking the number against the limit.
    fn entity(&mut self, prefix: &str, expected: &'static str) -> Result<(u32, Pos), ParseError> {
        let Some(word) = self.peek_word() else {
            return Err(self.expected(expected));
        };
        let pos = self.here();
        let Some(digits) = word.strip_prefix(prefix) else {
            return Err(self.expected(expected));
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.expected(expected));
        }
        let n = digits.parse::<u64>().unwrap_or(u64::MAX);
        if n > u64::from(MAX_ENTITY) {
            return Err(pos.error(ParseErrorKind::EntityTooLarge(n)));
        }
        self.bump();
        Ok((n as u32, pos))
    }

    fn ensure_value(&mut self, v: Value) {
        while self.func.values.len() <= v.index() {
            self.func.values.push(ValueData {
                ty: Type::Bool,
                def: ValueDef::Undefined,
            });
            self.value_lines.push(None);
        }
    }

    fn ensure_block(&mut self, b: Block) {
        while self.func.blocks.len() <= b.index() {
            self.func.blocks.push(BlockData::default());
        }
        if self.block_lines.len() <= b.index() {
            self.block_lines.resize(b.index() + 1, None);
        }
    }

    /// An operand: records the use so that a value defined nowhere is reported.
    fn use_value(&mut self) -> Result<Value, ParseError> {
        let (n, pos) = self.entity("v", "a value (`vN`)")?;
        let v = Value::new(n as usize);
        self.ensure_value(v);
        self.uses.push((v, pos));
        Ok(v)
    }

    /// Comma-separated operands, possibly none.
    fn operands(&mut self) -> Result<Vec<Value>, ParseError> {
        let mut args = Vec::new();
        if !self.peek_word().is_some_and(|w| w.starts_with('v')) {
            return Ok(args);
        }
        args.push(self.use_value()?);
        while self.eat_punct(',') {
            args.push(self.use_value()?);
        }
        Ok(args)
    }

    /// `vN:TYPE`, comma-separated (results and block parameters); defines nothing yet.
    fn decls(&mut self) -> Result<Vec<(Value, Type, Pos)>, ParseError> {
        let mut decls = Vec::new();
        loop {
            let (n, pos) = self.entity("v", "a value (`vN`)")?;
            self.expect_punct(':', "`:` and a type")?;
            let (ty_word, ty_pos) = self.word("a type")?;
            let ty = Type::from_name(ty_word)
                .ok_or_else(|| ty_pos.error(ParseErrorKind::UnknownType(ty_word.into())))?;
            decls.push((Value::new(n as usize), ty, pos));
            if !self.eat_punct(',') {
                return Ok(decls);
            }
        }
    }

    fn define_value(
        &mut self,
        v: Value,
        ty: Type,
        def: ValueDef,
        pos: Pos,
    ) -> Result<(), ParseError> {
        self.ensure_value(v);
        if let Some(line) = self.value_lines[v.index()] {
            return Err(pos.error(ParseErrorKind::DuplicateValue { value: v, line }));
        }
        self.value_lines[v.index()] = Some(pos.line);
        self.func.values[v] = ValueData { ty, def };
        Ok(())
    }

    // ---- structure

    fn function(&mut self) -> Result<(), ParseError> {
        self.skip_newlines();
        self.keyword("function", "`function`")?;
        self.expect_punct('@', "`@` and the function's name")?;
        self.func.name = match self.peek().clone() {
            Tok::Word(w) if syntax::is_identifier(w) => w.to_string(),
            Tok::Str(s) => s,
            _ => return Err(self.expected("a function name")),
        };
        self.bump();
        let (stage_word, stage_pos) =
            self.word("a stage (`compute`, `fragment`, `vertex`, `geometry`)")?;
        self.func.stage = match syntax::PLAIN_STAGES
            .into_iter()
            .find(|s| s.name() == stage_word)
        {
            Some(stage) => stage,
            None if stage_word == "geometry" => Stage::Geometry(self.geometry_modes()?),
            None => return Err(stage_pos.error(ParseErrorKind::UnknownStage(stage_word.into()))),
        };
        while !self.eat_punct('{') {
            self.mode()?;
        }
        self.end_of_line()?;
        self.skip_newlines();
        self.func.entry = self.block(None, 0)?;
        self.expect_punct('}', "`}` closing the function")?;
        self.skip_newlines();
        if *self.peek() != Tok::Eof {
            return Err(self.expected("end of input after the function"));
        }
        if let Some(&(v, pos)) = self
            .uses
            .iter()
            .find(|(v, _)| self.value_lines[v.index()].is_none())
        {
            return Err(pos.error(ParseErrorKind::UndefinedValue(v)));
        }
        Ok(())
    }

    /// `input(PRIM) output(PRIM) max_vertices(N) invocations(N)`, all four in this order.
    fn geometry_modes(&mut self) -> Result<GeometryModes, ParseError> {
        let (input, pos) = self.parenthesized_word(syntax::GEOMETRY_INPUT, "`input(PRIMITIVE)`")?;
        let input = InputPrimitive::from_name(input)
            .ok_or_else(|| inst::unknown(pos, "input primitive", input))?;
        let (output, pos) =
            self.parenthesized_word(syntax::GEOMETRY_OUTPUT, "`output(PRIMITIVE)`")?;
        let output = OutputPrimitive::from_name(output)
            .ok_or_else(|| inst::unknown(pos, "output primitive", output))?;
        self.keyword(syntax::GEOMETRY_MAX_VERTICES, "`max_vertices(N)`")?;
        self.expect_punct('(', "`(`")?;
        let max_vertices = self.u32("vertex count")?;
        self.expect_punct(')', "`)`")?;
        self.keyword(syntax::GEOMETRY_INVOCATIONS, "`invocations(N)`")?;
        self.expect_punct('(', "`(`")?;
        let invocations = self.u32("invocation count")?;
        self.expect_punct(')', "`)`")?;
        Ok(GeometryModes {
            input,
            output,
            max_vertices,
            invocations,
        })
    }

    /// `KEYWORD(WORD)`: the word and its position.
    fn parenthesized_word(
        &mut self,
        kw: &'static str,
        expected: &'static str,
    ) -> Result<(&'a str, Pos), ParseError> {
        self.keyword(kw, expected)?;
        self.expect_punct('(', "`(`")?;
        let word = self.word("a primitive name")?;
        self.expect_punct(')', "`)`")?;
        Ok(word)
    }

    /// One execution mode in the header.
    fn mode(&mut self) -> Result<(), ParseError> {
        let (word, pos) = self.word("an execution mode or `{`")?;
        let modes = &mut self.func.modes;
        match word {
            syntax::ORIGIN_LOWER_LEFT => modes.origin_upper_left = false,
            syntax::PIXEL_CENTER_INTEGER => modes.pixel_center_integer = true,
            syntax::DEPTH_REPLACING => modes.depth_replacing = true,
            syntax::EARLY_FRAGMENT_TESTS => modes.early_fragment_tests = true,
            "local_size" => {
                self.expect_punct('(', "`(`")?;
                let x = self.u32("workgroup size")?;
                self.expect_punct(',', "`,`")?;
                let y = self.u32("workgroup size")?;
                self.expect_punct(',', "`,`")?;
                let z = self.u32("workgroup size")?;
                self.expect_punct(')', "`)`")?;
                self.func.modes.local_size = [x, y, z];
            }
            "shared" => self.func.shared_memory = self.paren_u32("shared memory size")?,
            "push_constants" => {
                self.func.push_constant_bytes = self.paren_u32("push-constant block size")?
            }
            "private" => self.func.private_bytes = self.paren_u32("private memory size")?,
            "constants" => {
                self.expect_punct('(', "`(`")?;
                let mut data = Vec::new();
                loop {
                    let (w, pos) = self.word("a constant-data word (`0x` and 8 hex digits)")?;
                    let word = w
                        .strip_prefix("0x")
                        .filter(|h| h.len() == 8)
                        .and_then(|h| u32::from_str_radix(h, 16).ok())
                        .ok_or_else(|| {
                            pos.error(ParseErrorKind::BadNumber {
                                text: w.into(),
                                what: "constant-data word (`0x` and 8 hex digits)",
                            })
                        })?;
                    data.extend_from_slice(&word.to_le_bytes());
                    if !self.eat_punct(',') {
                        break;
                    }
                }
                self.expect_punct(')', "`)`")?;
                self.func.constant_data = data;
            }
            _ => return Err(pos.error(ParseErrorKind::UnknownMode(word.into()))),
        }
        Ok(())
    }

    /// A block: its label line and its instruction lines, up to (not including) the `}` that
    /// closes it.
    fn block(&mut self, parent: Option<Inst>, depth: usize) -> Result<Block, ParseError> {
        let (n, pos) = self.entity("block", "a block label (`blockN:`)")?;
        let block = Block::new(n as usize);
        self.ensure_block(block);
        if let Some(line) = self.block_lines[block.index()] {
            return Err(pos.error(ParseErrorKind::DuplicateBlock { block, line }));
        }
        self.block_lines[block.index()] = Some(pos.line);
        self.func.blocks[block].parent = parent;
        if self.eat_punct('(') {
            for (i, (v, ty, pos)) in self.decls()?.into_iter().enumerate() {
                self.define_value(v, ty, ValueDef::Param(block, i as u32), pos)?;
                self.func.blocks[block].params.push(v);
            }
            self.expect_punct(')', "`)` closing the block parameters")?;
        }
        self.expect_punct(':', "`:` after the block label")?;
        self.end_of_line()?;
        loop {
            self.skip_newlines();
            match self.peek() {
                Tok::Punct('}') => return Ok(block),
                Tok::Eof => return Err(self.expected("an instruction or `}`")),
                _ => self.inst_line(block, depth)?,
            }
        }
    }
}

/// Parses an unsigned decimal (no sign, no leading `+`) that fits in 32 bits.
fn parse_decimal(w: &str) -> Option<u32> {
    if w.is_empty() || !w.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    w.parse().ok()
}
