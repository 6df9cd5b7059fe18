//! The assembler's parser: text in the syntax [`Instr`]'s `Display` and the simulator's
//! disassembler print, back to [`Instr<PReg>`], laid out and encoded by the [`Assembler`].
//!
//! A line is empty, a comment (`;` or `//` to the end of the line), a label definition
//! (`loop:`, on its own or before an instruction), or an instruction. A listing as
//! `agxc disasm` or `agxc compile --emit asm` prints it is accepted as it stands: a leading
//! byte offset `1a:` (hex digits and a colon) and the column of instruction bytes after it
//! are skipped, the bytes being recomputed from the text. Jump and call targets are byte
//! offsets from the jump itself (`+12`, `-6`, as the disassembler prints them) or label
//! names; a label name must not consist of hex digits only (`ab:` would read as an offset).
//!
//! Every error names the line and column (both from 1, the column counted in characters)
//! where the offending text starts; errors of the encoder (an operand it cannot encode) point
//! at the instruction's mnemonic and name the operand.

mod form;
mod memory;
mod operand;

use std::fmt;

use indexmap::IndexMap;

use self::form::{Args, Labels};
use self::operand::{fail, split_operands, Located, Op, R};
use crate::isa::{AssembleError, Assembled, Assembler, Instr, Label, PReg};

/// An assembly error: where and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AsmError {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for AsmError {}

/// Whether `name` can be a label: letters, digits, `_` and `.`, not starting with a digit,
/// and not all hex digits (that reads as a listing's byte offset).
pub(crate) fn is_label_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        && !is_hex(name)
}

fn is_hex(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Label names to [`Label`]s, in order of first mention; where each was first used and
/// where defined.
#[derive(Default)]
struct LabelTable {
    labels: IndexMap<String, LabelInfo>,
    line: usize,
}

struct LabelInfo {
    label: Label,
    first_use: Option<(usize, usize)>,
    defined: Option<usize>,
}

impl LabelTable {
    fn entry(&mut self, name: &str) -> &mut LabelInfo {
        let next = Label(self.labels.len() as u32);
        self.labels.entry(name.to_owned()).or_insert(LabelInfo {
            label: next,
            first_use: None,
            defined: None,
        })
    }
}

impl Labels for LabelTable {
    fn label(&mut self, name: &str, at: usize) -> Label {
        let line = self.line;
        let info = self.entry(name);
        info.first_use.get_or_insert((line, at));
        info.label
    }
}

/// One instruction as parsed, with where its mnemonic is.
struct Parsed {
    instr: Instr<PReg>,
    line: usize,
    at: usize,
}

/// Assembles `text` into machine code (with the instructions and their offsets).
pub fn assemble(text: &str) -> Result<Assembled, AsmError> {
    let lines: Vec<&str> = text.lines().collect();
    let located = |line: usize, e: Located| AsmError {
        line: line + 1,
        column: column(lines[line], e.at),
        message: e.message,
    };
    let mut labels = LabelTable::default();
    let mut asm = Assembler::new();
    let mut parsed = Vec::new();
    for (n, raw) in lines.iter().enumerate() {
        labels.line = n;
        let body = strip_comment(raw);
        let (defs, instr) = split_line(body).map_err(|e| located(n, e))?;
        for (name, at) in defs {
            let info = labels.entry(name);
            if let Some(prev) = info.defined {
                return Err(located(
                    n,
                    Located {
                        at,
                        message: format!("label `{name}` is already defined on line {}", prev + 1),
                    },
                ));
            }
            info.defined = Some(n);
            asm.bind(info.label);
        }
        if let Some((mnemonic, rest_at)) = instr {
            let ops = split_operands(&body[rest_at..], rest_at).map_err(|e| located(n, e))?;
            let mut args = Args::new(ops, body.trim_end().len());
            let instr = form::instr(mnemonic, &mut args, &mut labels)
                .and_then(|i| args.done().map(|()| i))
                .map_err(|e| located(n, e))?;
            asm.push(instr);
            parsed.push(Parsed {
                instr,
                line: n,
                at: mnemonic.at,
            });
        }
    }
    for (name, info) in &labels.labels {
        if let (None, Some((line, at))) = (info.defined, info.first_use) {
            return Err(located(
                line,
                Located {
                    at,
                    message: format!("label `{name}` is not defined"),
                },
            ));
        }
    }
    if parsed.is_empty() {
        return Err(AsmError {
            line: 1,
            column: 1,
            message: "no instructions".into(),
        });
    }
    asm.finish().map_err(|e| match e {
        AssembleError::Instr { index, error } => {
            let p = &parsed[index];
            located(
                p.line,
                Located {
                    at: p.at,
                    message: format!("cannot encode `{}`: {error}", p.instr),
                },
            )
        }
        other => AsmError {
            line: lines.len().max(1),
            column: 1,
            message: other.to_string(),
        },
    })
}

/// The 1-based character column of byte `at` of `line`.
fn column(line: &str, at: usize) -> usize {
    let at = at.min(line.len());
    line.char_indices().take_while(|&(i, _)| i < at).count() + 1
}

/// The line without its comment (`;` or `//` to the end).
fn strip_comment(line: &str) -> &str {
    let cut = [line.find(';'), line.find("//")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(line.len());
    &line[..cut]
}

/// The label definitions of a line and its instruction: the mnemonic and the byte offset
/// where its operands start. A leading listing offset and byte column are skipped.
#[allow(clippy::type_complexity)]
fn split_line(body: &str) -> R<(Vec<(&str, usize)>, Option<(Op<'_>, usize)>)> {
    let mut defs = Vec::new();
    let mut pos = 0;
    let mut first = true;
    loop {
        let Some(word) = next_word(body, pos) else {
            return Ok((defs, None));
        };
        if let Some(name) = word.text.strip_suffix(':') {
            if first && is_hex(name) {
                // A listing's byte offset; the instruction's bytes may follow.
                pos = word.at + word.text.len();
                if let Some(bytes) = next_word(body, pos).filter(|w| is_hex(w.text)) {
                    pos = bytes.at + bytes.text.len();
                }
                first = false;
                continue;
            }
            if name == "error" {
                return fail(
                    word.at,
                    format!(
                        "the listing records a decode error here:{}",
                        &body[word.at + word.text.len()..]
                    ),
                );
            }
            if !is_label_name(name) {
                return fail(word.at, format!("`{name}` is not a label name"));
            }
            defs.push((name, word.at));
            pos = word.at + word.text.len();
            first = false;
            continue;
        }
        return Ok((defs, Some((word, word.at + word.text.len()))));
    }
}

/// The next blank-separated word at or after byte `pos`.
fn next_word(body: &str, pos: usize) -> Option<Op<'_>> {
    let rest = &body[pos..];
    let start = rest.find(|c: char| !c.is_whitespace())?;
    let len = rest[start..]
        .find(char::is_whitespace)
        .unwrap_or(rest.len() - start);
    Some(Op {
        text: &rest[start..start + len],
        at: pos + start,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The reference encodings of docs/g13.md ("Disassembly conventions"), seen with the
    /// reverse-engineering community's tool: text to bytes.
    #[test]
    fn reference_encodings_assemble_to_their_bytes() {
        let table = [
            ("2a8142422400", "fadd32 r0, r1, r2"),
            ("3a81424224460200", "fmadd32 r0, r1, r2, r3"),
            ("3a81c24228460200", "fmadd32 r0, r1.discard, r2.cache, r3"),
            ("620178563412", "mov_imm r0, 0x12345678"),
            ("62000500", "mov_imm r0l, 5"),
            ("aa91420a0200", "fadd32 r4.cache, r1.neg, 0.5"),
            ("0a0142a2", "sin_pt_1 r0, r1"),
            ("0a0140e2", "sin_pt_2 r0, r0"),
            ("3800", "wait 0"),
            ("8800", "stop"),
            ("528842020000", "if_icmp r0l, seq, r1, 0, 1"),
            ("520e00000000", "pop_exec r0l, 1"),
            ("20c00c000000", "jmp_exec_none +12"),
        ];
        for (bytes, text) in table {
            let a = assemble(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(hex(&a.code), bytes, "{text}");
        }
    }

    #[test]
    fn listing_columns_comments_and_labels() {
        let listing = "     0: 2a8142422400             fadd32 r0, r1, r2 ; add\n\
                       // a comment line\n\
                       \n\
                       top: jmp_exec_none done\n\
                       jmp_exec_any top\n\
                       done:\n\
                       stop\n";
        let a = assemble(listing).unwrap();
        assert_eq!(a.pcs, [0, 6, 12, 18]);
        // `done` is 12 bytes after the first jump; `top` 6 bytes before the second.
        assert_eq!(
            a.instrs[1].jump_target(),
            Some(crate::isa::JumpTarget::Offset(12))
        );
        assert_eq!(
            a.instrs[2].jump_target(),
            Some(crate::isa::JumpTarget::Offset(-6))
        );
        let offsets =
            assemble("fadd32 r0, r1, r2\njmp_exec_none +12\njmp_exec_any -6\nstop").unwrap();
        assert_eq!(offsets.code, a.code);
    }

    fn error(text: &str) -> (usize, usize, String) {
        let e = assemble(text).unwrap_err();
        (e.line, e.column, e.message)
    }

    #[test]
    fn errors_name_line_and_column() {
        let (l, c, m) = error("stop\n  fadd33 r0, r1, r2");
        assert_eq!((l, c), (2, 3), "{m}");
        assert!(m.contains("unknown instruction `fadd33`"), "{m}");
        let (l, c, m) = error("fadd32 r0, r1, x2");
        assert_eq!((l, c), (1, 16), "{m}");
        let (l, c, m) = error("iadd r0, r1, 300");
        assert_eq!((l, c), (1, 14), "{m}");
        assert!(m.contains("out of range"), "{m}");
        let (l, c, m) = error("stop\njmp_exec_none nowhere\n");
        assert_eq!((l, c), (2, 15), "{m}");
        assert!(m.contains("`nowhere` is not defined"), "{m}");
        let (_, _, m) = error("x: stop\nx: stop");
        assert!(m.contains("already defined on line 1"), "{m}");
        let (l, c, m) = error("fadd32 r0, r1");
        assert_eq!((l, c), (1, 14), "{m}");
        assert!(m.contains("missing operand"), "{m}");
        let (l, c, m) = error("fadd32 r0, r1, r2, r3");
        assert_eq!((l, c), (1, 20), "{m}");
        let (l, c, m) = error("fadd32 r0, r1.sx, r2");
        assert_eq!((l, c), (1, 14), "{m}");
        // An operand only the encoder rejects: pointed at the mnemonic, the operand named.
        let (l, c, m) = error("\nwait 0\n   fmadd16 r0, r1l, r2l, r3l");
        assert_eq!((l, c), (3, 4), "{m}");
        assert!(m.contains("cannot encode") && m.contains("dst"), "{m}");
        let (_, _, m) = error("icmp_ballot r0, ueq, r1, r2");
        assert!(m.contains("no form"), "{m}");
        let (_, _, m) = error("; nothing\n");
        assert!(m.contains("no instructions"), "{m}");
        // Columns count characters, not bytes.
        let (_, c, _) = error("stop ; é\nfadd32 é");
        assert_eq!(c, 8);
    }
}
