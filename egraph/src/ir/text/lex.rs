//! The text form's lexer: words, punctuation, quoted names and line ends, each with its position.
//!
//! Words are maximal runs of `[A-Za-z0-9_.]`, so `global_id.x`, `fadd.nocontract`, `2d_array`,
//! `0.x` and `1.5` are each one word; the parser splits and interprets them. A word that starts
//! with a digit or `-` is a number-like word: it may start with `-` and, after an exponent `e`
//! (outside hexadecimal), contain a `+` or `-` (`-1.5e-7`). Line ends are tokens because each
//! instruction is one line; `;` starts a comment that runs to the end of the line.

use super::error::{ParseError, ParseErrorKind};

/// A position in the input (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Pos {
    pub line: u32,
    pub column: u32,
}

impl Pos {
    pub fn error(self, kind: ParseErrorKind) -> ParseError {
        ParseError {
            line: self.line,
            column: self.column,
            kind,
        }
    }
}

/// A token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Tok<'a> {
    /// A word (identifier, keyword, number, entity name).
    Word(&'a str),
    /// A quoted string, unescaped.
    Str(String),
    /// One of `: = , ( ) [ ] { } + @`.
    Punct(char),
    /// The end of a line.
    Newline,
    /// The end of the input.
    Eof,
}

impl Tok<'_> {
    /// How the token is described in "expected X, found Y" messages.
    pub fn describe(&self) -> String {
        match self {
            Tok::Word(w) => format!("`{w}`"),
            Tok::Str(s) => format!("string {s:?}"),
            Tok::Punct(c) => format!("`{c}`"),
            Tok::Newline => "end of line".into(),
            Tok::Eof => "end of input".into(),
        }
    }
}

/// A token and where it starts.
#[derive(Clone, Debug)]
pub(super) struct Token<'a> {
    pub tok: Tok<'a>,
    pub pos: Pos,
}

const PUNCT: &[char] = &[':', '=', ',', '(', ')', '[', ']', '{', '}', '+', '@'];

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

/// Splits the input into tokens; the last one is `Eof`.
pub(super) fn lex(text: &str) -> Result<Vec<Token<'_>>, ParseError> {
    let mut lexer = Lexer {
        text,
        chars: text.char_indices().peekable(),
        line: 1,
        column: 1,
        tokens: Vec::new(),
    };
    lexer.run()?;
    Ok(lexer.tokens)
}

struct Lexer<'a> {
    text: &'a str,
    chars: core::iter::Peekable<core::str::CharIndices<'a>>,
    line: u32,
    column: u32,
    tokens: Vec<Token<'a>>,
}

impl<'a> Lexer<'a> {
    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            column: self.column,
        }
    }

    fn bump(&mut self) -> Option<(usize, char)> {
        let next = self.chars.next()?;
        if next.1 == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(next)
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().map(|&(_, c)| c)
    }

    fn offset(&mut self) -> usize {
        self.chars.peek().map_or(self.text.len(), |&(i, _)| i)
    }

    fn push(&mut self, tok: Tok<'a>, pos: Pos) {
        self.tokens.push(Token { tok, pos });
    }

    fn run(&mut self) -> Result<(), ParseError> {
        while let Some(c) = self.peek() {
            let pos = self.pos();
            match c {
                '\n' => {
                    self.bump();
                    self.push(Tok::Newline, pos);
                }
                ';' => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                }
                c if c.is_whitespace() => {
                    self.bump();
                }
                '"' => {
                    self.bump();
                    let s = self.string(pos)?;
                    self.push(Tok::Str(s), pos);
                }
                c if PUNCT.contains(&c) => {
                    self.bump();
                    self.push(Tok::Punct(c), pos);
                }
                c if is_word_char(c) || c == '-' => self.word(pos)?,
                c => return Err(pos.error(ParseErrorKind::UnexpectedChar(c))),
            }
        }
        let pos = self.pos();
        self.push(Tok::Eof, pos);
        Ok(())
    }

    fn word(&mut self, pos: Pos) -> Result<(), ParseError> {
        let start = self.offset();
        let Some((_, first)) = self.bump() else {
            return Ok(());
        };
        let numeric = first == '-' || first.is_ascii_digit();
        if first == '-' && !self.peek().is_some_and(is_word_char) {
            return Err(pos.error(ParseErrorKind::UnexpectedChar('-')));
        }
        let mut prev = first;
        while let Some(c) = self.peek() {
            let exponent_sign = numeric
                && (c == '+' || c == '-')
                && matches!(prev, 'e' | 'E')
                && !self.text[start..self.offset()].contains(['x', 'X']);
            if !(is_word_char(c) || exponent_sign) {
                break;
            }
            prev = c;
            self.bump();
        }
        let end = self.offset();
        self.push(Tok::Word(&self.text[start..end]), pos);
        Ok(())
    }

    /// Reads a string body after its opening quote.
    fn string(&mut self, start: Pos) -> Result<String, ParseError> {
        let mut s = String::new();
        loop {
            let pos = self.pos();
            match self.bump() {
                None | Some((_, '\n')) => {
                    return Err(start.error(ParseErrorKind::UnterminatedString))
                }
                Some((_, '"')) => return Ok(s),
                Some((_, '\\')) => match self.bump() {
                    Some((_, '"')) => s.push('"'),
                    Some((_, '\\')) => s.push('\\'),
                    Some((_, 'n')) => s.push('\n'),
                    Some((_, 't')) => s.push('\t'),
                    Some((_, 'u')) => s.push(self.unicode_escape(pos)?),
                    Some((_, c)) => return Err(pos.error(ParseErrorKind::BadEscape(c))),
                    None => return Err(start.error(ParseErrorKind::UnterminatedString)),
                },
                Some((_, c)) => s.push(c),
            }
        }
    }

    /// Reads `{HEX}` after `\u`.
    fn unicode_escape(&mut self, pos: Pos) -> Result<char, ParseError> {
        let bad = || pos.error(ParseErrorKind::BadEscape('u'));
        if self.bump().map(|(_, c)| c) != Some('{') {
            return Err(bad());
        }
        let mut code = 0u32;
        let mut digits = 0;
        loop {
            match self.bump().map(|(_, c)| c) {
                Some('}') if digits > 0 => break,
                Some(c) if digits < 6 => {
                    code = code * 16 + c.to_digit(16).ok_or_else(bad)?;
                    digits += 1;
                }
                _ => return Err(bad()),
            }
        }
        char::from_u32(code).ok_or_else(bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<Tok<'_>> {
        lex(text).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn numbers_words_and_punctuation() {
        assert_eq!(
            words("v1:f32 = const -1.5e-7 ; note\n[v2 + 16] 0x7e01 2d_array"),
            vec![
                Tok::Word("v1"),
                Tok::Punct(':'),
                Tok::Word("f32"),
                Tok::Punct('='),
                Tok::Word("const"),
                Tok::Word("-1.5e-7"),
                Tok::Newline,
                Tok::Punct('['),
                Tok::Word("v2"),
                Tok::Punct('+'),
                Tok::Word("16"),
                Tok::Punct(']'),
                Tok::Word("0x7e01"),
                Tok::Word("2d_array"),
                Tok::Eof,
            ]
        );
        // A `+` after a hexadecimal `e` digit is not an exponent sign.
        assert_eq!(
            words("0x1e+2"),
            vec![Tok::Word("0x1e"), Tok::Punct('+'), Tok::Word("2"), Tok::Eof]
        );
    }

    #[test]
    fn strings_and_positions() {
        let toks = lex("@\"a\\\"b\\u{e9}\"\n  $").unwrap_err();
        assert_eq!((toks.line, toks.column), (2, 3));
        let toks = lex("@\"a\\\"b\\u{e9}\"").unwrap();
        assert_eq!(toks[1].tok, Tok::Str("a\"bé".into()));
        assert_eq!(
            lex("\"abc").unwrap_err().kind,
            ParseErrorKind::UnterminatedString
        );
    }
}
