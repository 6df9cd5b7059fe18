//! A cursor over the tokens of one line, with the error constructors the parser uses.

use crate::tgsi::error::{Pos, Result, TgsiError};
use crate::tgsi::lexer::{Line, TokKind, Token};

/// Reads the tokens of one line left to right.
pub(super) struct Cursor<'l, 'a> {
    toks: &'l [Token<'a>],
    i: usize,
    end: Pos,
}

impl<'l, 'a> Cursor<'l, 'a> {
    pub fn new(line: &'l Line<'a>) -> Cursor<'l, 'a> {
        Cursor {
            toks: &line.tokens,
            i: 0,
            end: line.end,
        }
    }

    pub fn peek(&self) -> Option<Token<'a>> {
        self.toks.get(self.i).copied()
    }

    pub fn peek_kind(&self) -> Option<TokKind> {
        self.peek().map(|t| t.kind)
    }

    pub fn peek2_kind(&self) -> Option<TokKind> {
        self.toks.get(self.i + 1).map(|t| t.kind)
    }

    pub fn at_end(&self) -> bool {
        self.i >= self.toks.len()
    }

    /// The position of the next token, or the end of the line.
    pub fn pos(&self) -> Pos {
        self.peek().map_or(self.end, |t| t.pos)
    }

    pub fn bump(&mut self) -> Option<Token<'a>> {
        let t = self.peek()?;
        self.i += 1;
        Some(t)
    }

    /// Consumes the next token if it has `kind`.
    pub fn eat(&mut self, kind: TokKind) -> bool {
        if self.peek_kind() == Some(kind) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// How the next token reads in a message.
    pub fn found(&self) -> String {
        match self.peek() {
            Some(t) => format!("`{}`", t.text),
            None => "end of line".into(),
        }
    }

    /// An "expected X, found Y" error at the next token.
    pub fn expected(&self, what: impl Into<String>) -> TgsiError {
        TgsiError::Expected {
            pos: self.pos(),
            expected: what.into(),
            found: self.found(),
        }
    }

    pub fn expect(&mut self, kind: TokKind) -> Result<Token<'a>> {
        match self.peek() {
            Some(t) if t.kind == kind => {
                self.i += 1;
                Ok(t)
            }
            _ => Err(self.expected(kind.describe())),
        }
    }

    /// A word as written, with its position.
    pub fn raw_word(&mut self, what: &str) -> Result<(&'a str, Pos)> {
        match self.peek() {
            Some(t) if t.kind == TokKind::Word => {
                self.i += 1;
                Ok((t.text, t.pos))
            }
            _ => Err(self.expected(what)),
        }
    }

    /// A word, returned upper-cased with its position.
    pub fn word(&mut self, what: &str) -> Result<(String, Pos)> {
        match self.peek() {
            Some(t) if t.kind == TokKind::Word => {
                self.i += 1;
                Ok((t.text.to_ascii_uppercase(), t.pos))
            }
            _ => Err(self.expected(what)),
        }
    }

    /// An unsigned 32-bit integer literal (decimal or `0x` hexadecimal).
    pub fn uint(&mut self, what: &'static str) -> Result<u32> {
        let t = match self.peek() {
            Some(t) if t.kind == TokKind::Number => t,
            _ => return Err(self.expected(format!("{what} (an unsigned integer)"))),
        };
        self.i += 1;
        parse_u64(t.text)
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| TgsiError::InvalidNumber {
                pos: t.pos,
                what,
                text: t.text.to_string(),
            })
    }

    /// Fails unless the line is used up.
    pub fn finish(&self) -> Result<()> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.expected("end of line"))
        }
    }
}

/// Parses a decimal or `0x` hexadecimal unsigned integer.
pub(super) fn parse_u64(text: &str) -> Option<u64> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()
    } else if text.bytes().all(|b| b.is_ascii_digit()) {
        text.parse().ok()
    } else {
        None
    }
}
