//! Splits TGSI text into tokens, grouped by line.
//!
//! TGSI text has no comments; whitespace is space, tab and newline (Mesa's `tgsi_text.c`), and
//! carriage returns are accepted too so that CRLF files read. Every statement of a dump sits on
//! one line, so the lexer hands the parser one token list per non-empty line: a statement that
//! runs into the next line is reported where it stops, not several lines later.
//!
//! Tokens:
//! - words `[A-Za-z_][A-Za-z0-9_]*`, and words that start with digits (`2D`, `1D_ARRAY`);
//! - numbers: decimal integers, decimal floats (`1.5`, `.5`, `1.`, `2e-3`), hexadecimal
//!   integers (`0x3f800000`) and hexadecimal floats (`0x1.8p+1`); a sign is a separate token;
//! - punctuation `[ ] ( ) { } , : . .. - + |`.

use super::error::{Pos, Result, TgsiError};

/// The kind of a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokKind {
    /// A word (identifier, keyword, swizzle, `2D`).
    Word,
    /// A number literal (without sign).
    Number,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `.`
    Dot,
    /// `..`
    DotDot,
    /// `-`
    Minus,
    /// `+`
    Plus,
    /// `|`
    Bar,
}

impl TokKind {
    /// How the token is named in messages.
    pub fn describe(self) -> &'static str {
        match self {
            TokKind::Word => "a word",
            TokKind::Number => "a number",
            TokKind::LBracket => "`[`",
            TokKind::RBracket => "`]`",
            TokKind::LParen => "`(`",
            TokKind::RParen => "`)`",
            TokKind::LBrace => "`{`",
            TokKind::RBrace => "`}`",
            TokKind::Comma => "`,`",
            TokKind::Colon => "`:`",
            TokKind::Dot => "`.`",
            TokKind::DotDot => "`..`",
            TokKind::Minus => "`-`",
            TokKind::Plus => "`+`",
            TokKind::Bar => "`|`",
        }
    }
}

/// A token: its kind, its text and where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// Kind.
    pub kind: TokKind,
    /// The exact text.
    pub text: &'a str,
    /// Where it starts.
    pub pos: Pos,
}

/// The tokens of one non-empty line, and where the line ends (for "end of line" messages).
#[derive(Clone, Debug)]
pub struct Line<'a> {
    /// Tokens in order (never empty).
    pub tokens: Vec<Token<'a>>,
    /// The position just after the last character of the line.
    pub end: Pos,
}

/// Splits `text` into lines of tokens, skipping empty lines.
pub fn lex(text: &str) -> Result<Vec<Line<'_>>> {
    let mut lines = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        let line_no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let tokens = lex_line(line, line_no)?;
        if !tokens.is_empty() {
            let end = Pos::new(line_no, line.chars().count() as u32 + 1);
            lines.push(Line { tokens, end });
        }
    }
    Ok(lines)
}

fn is_word_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn lex_line(line: &str, line_no: u32) -> Result<Vec<Token<'_>>> {
    let bytes = line.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    // Columns count characters; only ASCII forms tokens, so a column is the number of
    // characters before the byte offset plus one.
    let col = |byte: usize| Pos::new(line_no, line[..byte].chars().count() as u32 + 1);
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        let kind = match c {
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'[' => single(&mut i, TokKind::LBracket),
            b']' => single(&mut i, TokKind::RBracket),
            b'(' => single(&mut i, TokKind::LParen),
            b')' => single(&mut i, TokKind::RParen),
            b'{' => single(&mut i, TokKind::LBrace),
            b'}' => single(&mut i, TokKind::RBrace),
            b',' => single(&mut i, TokKind::Comma),
            b':' => single(&mut i, TokKind::Colon),
            b'-' => single(&mut i, TokKind::Minus),
            b'+' => single(&mut i, TokKind::Plus),
            b'|' => single(&mut i, TokKind::Bar),
            b'.' => {
                if bytes.get(i + 1) == Some(&b'.') {
                    i += 2;
                    TokKind::DotDot
                } else if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
                    i = scan_decimal(bytes, i);
                    TokKind::Number
                } else {
                    single(&mut i, TokKind::Dot)
                }
            }
            c if is_word_start(c) => {
                while i < bytes.len() && is_word_char(bytes[i]) {
                    i += 1;
                }
                TokKind::Word
            }
            c if c.is_ascii_digit() => {
                i = scan_number(bytes, i);
                // Digits running into letters make a word: texture targets like `2D`.
                if i < bytes.len() && is_word_char(bytes[i]) {
                    while i < bytes.len() && is_word_char(bytes[i]) {
                        i += 1;
                    }
                    TokKind::Word
                } else {
                    TokKind::Number
                }
            }
            _ => {
                let ch = line[i..].chars().next().unwrap_or('\u{fffd}');
                return Err(TgsiError::UnexpectedChar { pos: col(i), ch });
            }
        };
        tokens.push(Token {
            kind,
            text: &line[start..i],
            pos: col(start),
        });
    }
    Ok(tokens)
}

fn single(i: &mut usize, kind: TokKind) -> TokKind {
    *i += 1;
    kind
}

/// Scans a number starting with a digit; returns the end offset.
fn scan_number(b: &[u8], start: usize) -> usize {
    if b[start] == b'0' && matches!(b.get(start + 1), Some(b'x' | b'X')) {
        return scan_hex(b, start + 2);
    }
    scan_decimal(b, start)
}

fn digits(b: &[u8], mut i: usize, ok: impl Fn(u8) -> bool) -> usize {
    while i < b.len() && ok(b[i]) {
        i += 1;
    }
    i
}

/// `digits [. digits] [e[+-]digits]`, also `.digits`; a trailing `.` is part of the number
/// (`1.`) unless a second `.` (a range) or a letter (a swizzle) follows.
fn scan_decimal(b: &[u8], start: usize) -> usize {
    let mut i = digits(b, start, |c| c.is_ascii_digit());
    if b.get(i) == Some(&b'.') {
        match b.get(i + 1) {
            Some(c) if c.is_ascii_digit() => i = digits(b, i + 1, |c| c.is_ascii_digit()),
            Some(b'.') => return i,
            Some(c) if c.is_ascii_alphabetic() && !matches!(c, b'e' | b'E') => return i,
            _ => i += 1,
        }
    }
    exponent(b, i, b'e')
}

fn scan_hex(b: &[u8], start: usize) -> usize {
    let mut i = digits(b, start, |c| c.is_ascii_hexdigit());
    if b.get(i) == Some(&b'.') && b.get(i + 1) != Some(&b'.') {
        i = digits(b, i + 1, |c| c.is_ascii_hexdigit());
    }
    exponent(b, i, b'p')
}

/// An optional exponent `e`/`p` (either case), sign, digits: consumed only when complete.
fn exponent(b: &[u8], i: usize, letter: u8) -> usize {
    if b.get(i).map(u8::to_ascii_lowercase) != Some(letter) {
        return i;
    }
    let mut j = i + 1;
    if matches!(b.get(j), Some(b'+' | b'-')) {
        j += 1;
    }
    if b.get(j).is_some_and(u8::is_ascii_digit) {
        digits(b, j, |c| c.is_ascii_digit())
    } else {
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(TokKind, &str)> {
        lex(text)
            .unwrap()
            .into_iter()
            .flat_map(|l| l.tokens)
            .map(|t| (t.kind, t.text))
            .collect()
    }

    #[test]
    fn registers_ranges_and_swizzles() {
        use TokKind::*;
        assert_eq!(
            kinds("DCL TEMP[0..4], ARRAY(1)"),
            vec![
                (Word, "DCL"),
                (Word, "TEMP"),
                (LBracket, "["),
                (Number, "0"),
                (DotDot, ".."),
                (Number, "4"),
                (RBracket, "]"),
                (Comma, ","),
                (Word, "ARRAY"),
                (LParen, "("),
                (Number, "1"),
                (RParen, ")"),
            ]
        );
        assert_eq!(
            kinds("-|TEMP[ADDR[0].x+3]|.xyzw"),
            vec![
                (Minus, "-"),
                (Bar, "|"),
                (Word, "TEMP"),
                (LBracket, "["),
                (Word, "ADDR"),
                (LBracket, "["),
                (Number, "0"),
                (RBracket, "]"),
                (Dot, "."),
                (Word, "x"),
                (Plus, "+"),
                (Number, "3"),
                (RBracket, "]"),
                (Bar, "|"),
                (Dot, "."),
                (Word, "xyzw"),
            ]
        );
    }

    #[test]
    fn numbers_and_texture_targets() {
        use TokKind::*;
        assert_eq!(
            kinds("{1.5, .25, 2., 1e-3, 0x3f800000, 0x1.8p+1} 2D 1D_ARRAY"),
            vec![
                (LBrace, "{"),
                (Number, "1.5"),
                (Comma, ","),
                (Number, ".25"),
                (Comma, ","),
                (Number, "2."),
                (Comma, ","),
                (Number, "1e-3"),
                (Comma, ","),
                (Number, "0x3f800000"),
                (Comma, ","),
                (Number, "0x1.8p+1"),
                (RBrace, "}"),
                (Word, "2D"),
                (Word, "1D_ARRAY"),
            ]
        );
    }

    #[test]
    fn positions_are_line_and_column() {
        let lines = lex("FRAG\n\n  MOV OUT[0], IN[0]\r\n").unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1].tokens[0].pos, Pos::new(3, 3));
        assert_eq!(lines[1].tokens[2].pos, Pos::new(3, 10));
    }

    #[test]
    fn rejects_stray_characters_with_position() {
        assert_eq!(
            lex("FRAG\nMOV OUT[0], IN[0] # x").unwrap_err(),
            TgsiError::UnexpectedChar {
                pos: Pos::new(2, 19),
                ch: '#'
            }
        );
    }
}
