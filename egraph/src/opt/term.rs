//! Terms: the s-expression form rules and tests are written in.
//!
//! ```text
//! (fadd (fmul ?a ?b) ?c)          ; pattern variables start with `?`
//! (fmul ?x 0.5)                   ; a literal takes the type its position demands (f16 or f32)
//! (iadd ?x:i32 1)                 ; a typed variable (tests; rules ignore the type)
//! (s2f:f32 (ubfe ?x 0 8))         ; conversions name their result type
//! (g13.sin_pt_1 ?q)               ; target operations by their registered name
//! (fmul ?x 1.0:f32)               ; a typed constant matches that type only
//! ```
//!
//! Literals are *generic*: `1` is `1:i32` next to an `i32` and `1.0:f16` next to an `f16`, so one
//! rule covers every type its identity holds for. The words `@smax`, `@smin` and `@umax` are the
//! extreme integers of the position's type.

use super::language::Kind;
use crate::ir::{Const, OpRegistry, PureOp, Signature, Type};
use core::fmt;

/// A generic literal.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Lit {
    /// An integer; also usable as a float or (0, 1, -1) a bool.
    Int(i64),
    /// A float literal (only floats). `-0.0` keeps its sign.
    Float(f64),
    /// `true` or `false`.
    Bool(bool),
    /// The largest signed integer of the type.
    SignedMax,
    /// The smallest signed integer of the type.
    SignedMin,
    /// All ones.
    UnsignedMax,
}

impl Lit {
    /// The constant this literal denotes in type `ty`, or `None` if it has no meaning there.
    ///
    /// Float literals are rounded to f32 first and then converted with the table's `fcvt` for f16,
    /// so every literal used by a rule is exact in f32 or states its rounding in the rule's doc.
    pub fn to_const(self, ty: Type) -> Option<Const> {
        let float = |v: f64| -> Const {
            let c = Const::f32(v as f32);
            match ty {
                Type::F16 => PureOp::Fcvt.eval(&[c], Type::F16),
                _ => c,
            }
        };
        match (self, ty) {
            (Lit::Bool(b), Type::Bool) => Some(Const::bool(b)),
            (Lit::Int(v), Type::Bool) if (-1..=1).contains(&v) => Some(Const::bool(v != 0)),
            (Lit::Int(v), t) if t.is_int() => {
                let min = -(1i128 << (t.bits() - 1));
                let max = (1i128 << t.bits()) - 1;
                ((v as i128) >= min && (v as i128) <= max).then(|| Const::int(t, v))
            }
            (Lit::Int(v), t) if t.is_float() => Some(float(v as f64)),
            (Lit::Float(v), t) if t.is_float() => Some(float(v)),
            (Lit::SignedMax, t) if t.is_int() => Some(Const::from_bits(t, t.mask() >> 1)),
            (Lit::SignedMin, t) if t.is_int() => Some(Const::from_bits(t, (t.mask() >> 1) + 1)),
            (Lit::UnsignedMax, t) if t.is_int() => Some(Const::from_bits(t, t.mask())),
            _ => None,
        }
    }

    /// The type a literal has wherever it appears (`true`/`false` are bools), if fixed.
    pub fn natural_type(self) -> Option<Type> {
        match self {
            Lit::Bool(_) => Some(Type::Bool),
            _ => None,
        }
    }

    fn parse(text: &str) -> Option<Lit> {
        match text {
            "true" => return Some(Lit::Bool(true)),
            "false" => return Some(Lit::Bool(false)),
            "@smax" => return Some(Lit::SignedMax),
            "@smin" => return Some(Lit::SignedMin),
            "@umax" => return Some(Lit::UnsignedMax),
            "inf" => return Some(Lit::Float(f64::INFINITY)),
            "-inf" => return Some(Lit::Float(f64::NEG_INFINITY)),
            _ => {}
        }
        if let Ok(v) = text.parse::<i64>() {
            return Some(Lit::Int(v));
        }
        let first = text.chars().next()?;
        if first.is_ascii_digit() || first == '-' || first == '.' {
            return text.parse::<f64>().ok().map(Lit::Float);
        }
        None
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Lit::Int(v) => write!(f, "{v}"),
            Lit::Float(v) => write!(f, "{v:?}"),
            Lit::Bool(b) => write!(f, "{b}"),
            Lit::SignedMax => f.write_str("@smax"),
            Lit::SignedMin => f.write_str("@smin"),
            Lit::UnsignedMax => f.write_str("@umax"),
        }
    }
}

/// A term: a variable, a generic literal or an operation applied to terms.
#[derive(Clone, PartialEq, Debug)]
pub enum Term {
    /// A pattern variable (`?x`), with an optional type (`?x:i32`).
    Var(String, Option<Type>),
    /// A generic literal.
    Lit(Lit),
    /// An operation (or typed constant, with no children).
    Node(Kind, Vec<Term>),
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Var(name, None) => write!(f, "?{name}"),
            Term::Var(name, Some(ty)) => write!(f, "?{name}:{ty}"),
            Term::Lit(l) => write!(f, "{l}"),
            Term::Node(k, kids) if kids.is_empty() => write!(f, "{k}"),
            Term::Node(k, kids) => {
                write!(f, "({k}")?;
                for kid in kids {
                    write!(f, " {kid}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Why a term did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TermError {
    /// Unbalanced parentheses or trailing input.
    #[error("malformed term at byte {at}: {what}")]
    Syntax {
        /// Byte offset.
        at: usize,
        /// What was wrong.
        what: &'static str,
    },
    /// An operation name that is neither in the table nor in the registry.
    #[error("unknown operation `{0}`")]
    UnknownOp(String),
    /// An atom that is no variable, literal or constant.
    #[error("`{0}` is not a variable, literal or constant")]
    BadAtom(String),
    /// Wrong number of operands.
    #[error("`{op}` takes {expected} operands, got {got}")]
    Arity {
        /// The operation.
        op: String,
        /// Its arity.
        expected: usize,
        /// Operands written.
        got: usize,
    },
}

impl Term {
    /// Parses a term; target operations are looked up in `registry`.
    pub fn parse(text: &str, registry: &OpRegistry) -> Result<Term, TermError> {
        let mut p = Parser {
            text,
            pos: 0,
            registry,
        };
        let t = p.term()?;
        p.skip_space();
        if p.pos != text.len() {
            return Err(TermError::Syntax {
                at: p.pos,
                what: "trailing input",
            });
        }
        Ok(t)
    }

    /// The operation at the root of `text`, read without parsing the rest (a lazily built
    /// rule's left side: what it can match is known before it is parsed); `None` if `text` is
    /// not an operation applied to operands or names no known operation.
    pub fn parse_head(text: &str, registry: &OpRegistry) -> Option<Kind> {
        let mut p = Parser {
            text,
            pos: 0,
            registry,
        };
        p.skip_space();
        if !text[p.pos..].starts_with('(') {
            return None;
        }
        p.pos += 1;
        p.skip_space();
        let head = p.atom();
        p.op_kind(head).ok()
    }

    /// The variables, in order of first appearance.
    pub fn vars(&self) -> Vec<(String, Option<Type>)> {
        let mut out: Vec<(String, Option<Type>)> = Vec::new();
        self.walk(&mut |t| {
            if let Term::Var(n, ty) = t {
                if !out.iter().any(|(m, _)| m == n) {
                    out.push((n.clone(), *ty));
                }
            }
        });
        out
    }

    /// Visits every subterm, parents first.
    pub fn walk(&self, f: &mut impl FnMut(&Term)) {
        f(self);
        if let Term::Node(_, kids) = self {
            for k in kids {
                k.walk(f);
            }
        }
    }
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    registry: &'a OpRegistry,
}

impl<'a> Parser<'a> {
    fn skip_space(&mut self) {
        while let Some(c) = self.text[self.pos..].chars().next() {
            if c.is_whitespace() {
                self.pos += c.len_utf8();
            } else if c == ';' {
                while let Some(c) = self.text[self.pos..].chars().next() {
                    self.pos += c.len_utf8();
                    if c == '\n' {
                        break;
                    }
                }
            } else {
                break;
            }
        }
    }

    fn atom(&mut self) -> &'a str {
        let start = self.pos;
        while let Some(c) = self.text[self.pos..].chars().next() {
            if c.is_whitespace() || c == '(' || c == ')' {
                break;
            }
            self.pos += c.len_utf8();
        }
        &self.text[start..self.pos]
    }

    fn term(&mut self) -> Result<Term, TermError> {
        self.skip_space();
        match self.text[self.pos..].chars().next() {
            None => Err(TermError::Syntax {
                at: self.pos,
                what: "unexpected end",
            }),
            Some(')') => Err(TermError::Syntax {
                at: self.pos,
                what: "unexpected `)`",
            }),
            Some('(') => {
                self.pos += 1;
                self.skip_space();
                let head = self.atom();
                let kind = self.op_kind(head)?;
                let mut kids = Vec::new();
                loop {
                    self.skip_space();
                    match self.text[self.pos..].chars().next() {
                        Some(')') => {
                            self.pos += 1;
                            break;
                        }
                        None => {
                            return Err(TermError::Syntax {
                                at: self.pos,
                                what: "missing `)`",
                            })
                        }
                        _ => kids.push(self.term()?),
                    }
                }
                if kind.arity() != kids.len() {
                    return Err(TermError::Arity {
                        op: head.to_string(),
                        expected: kind.arity(),
                        got: kids.len(),
                    });
                }
                Ok(Term::Node(kind, kids))
            }
            Some(_) => {
                let a = self.atom();
                leaf_term(a)
            }
        }
    }

    fn op_kind(&self, head: &str) -> Result<Kind, TermError> {
        if let Some(k) = Kind::parse(head) {
            if k.signature().is_some() {
                return Ok(k);
            }
        }
        if let Some(op) = self.registry.get(head) {
            return Ok(Kind::Custom(op));
        }
        Err(TermError::UnknownOp(head.to_string()))
    }
}

fn leaf_term(a: &str) -> Result<Term, TermError> {
    if let Some(var) = a.strip_prefix('?') {
        return match var.split_once(':') {
            Some((name, ty)) => match Type::from_name(ty) {
                Some(t) if !name.is_empty() => Ok(Term::Var(name.to_string(), Some(t))),
                _ => Err(TermError::BadAtom(a.to_string())),
            },
            None if !var.is_empty() => Ok(Term::Var(var.to_string(), None)),
            None => Err(TermError::BadAtom(a.to_string())),
        };
    }
    if let Some(l) = Lit::parse(a) {
        return Ok(Term::Lit(l));
    }
    match Kind::parse(a) {
        Some(k @ (Kind::Const(_) | Kind::Leaf { .. })) => Ok(Term::Node(k, vec![])),
        _ => Err(TermError::BadAtom(a.to_string())),
    }
}

/// The operand types an operation kind's signature gives its children, from the result type it
/// must produce (`expected`) and the types of the children already known. `None` where a type
/// cannot be determined.
pub(crate) fn operand_types(
    kind: Kind,
    expected: Option<Type>,
    known: &[Option<Type>],
) -> Vec<Option<Type>> {
    let n = known.len();
    let first_known = |idx: &[usize]| idx.iter().find_map(|&i| known.get(i).copied().flatten());
    let Some(sig) = kind.signature() else {
        return known.to_vec();
    };
    match sig {
        Signature::Unary(_) | Signature::Binary(_) | Signature::Ternary(_) => {
            let t = expected.or_else(|| first_known(&(0..n).collect::<Vec<_>>()));
            vec![t; n]
        }
        Signature::Compare(_) => {
            let t = first_known(&[0, 1]);
            vec![t; n]
        }
        Signature::Select => {
            let t = expected.or_else(|| first_known(&[1, 2]));
            vec![Some(Type::Bool), t, t]
        }
        Signature::Convert { .. } => known.to_vec(),
        Signature::BitfieldInsert => {
            let t = expected.or_else(|| first_known(&[0, 1]));
            vec![t, t, Some(Type::I32), Some(Type::I32)]
        }
        Signature::BitfieldExtract => {
            let t = expected.or_else(|| first_known(&[0]));
            vec![t, Some(Type::I32), Some(Type::I32)]
        }
        Signature::CompareSelect { .. } => {
            let t = first_known(&[0, 1]);
            let u = expected.or_else(|| first_known(&[2, 3]));
            vec![t, t, u, u]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rules_and_prints_them_back() {
        let reg = OpRegistry::new();
        for text in [
            "(fadd (fmul ?a ?b) ?c)",
            "(fmul ?x 0.5)",
            "(iadd ?x:i32 1)",
            "(s2f:f32 (ubfe ?x 0 8))",
            "(fmul ?x 1.0:f32)",
            "(select ?c @smax -0.0)",
        ] {
            let t = Term::parse(text, &reg).expect(text);
            assert_eq!(t.to_string(), text);
        }
    }

    #[test]
    fn rejects_bad_terms() {
        let reg = OpRegistry::new();
        assert!(matches!(
            Term::parse("(fadd ?a)", &reg),
            Err(TermError::Arity { .. })
        ));
        assert!(matches!(
            Term::parse("(frobnicate ?a)", &reg),
            Err(TermError::UnknownOp(_))
        ));
        assert!(Term::parse("(fadd ?a ?b", &reg).is_err());
        assert!(Term::parse("(fadd ?a ?b))", &reg).is_err());
        assert!(Term::parse("(fadd ?a x)", &reg).is_err());
    }

    #[test]
    fn literals_take_the_type_of_their_position() {
        assert_eq!(Lit::Int(1).to_const(Type::F32), Some(Const::f32(1.0)));
        assert_eq!(Lit::Int(-1).to_const(Type::I16), Some(Const::i16(-1)));
        assert_eq!(Lit::Int(-1).to_const(Type::Bool), Some(Const::bool(true)));
        assert_eq!(Lit::Float(0.5).to_const(Type::I32), None);
        assert_eq!(Lit::Int(70000).to_const(Type::I16), None);
        assert_eq!(
            Lit::Float(-0.0).to_const(Type::F32).map(|c| c.bits()),
            Some(0x8000_0000)
        );
        assert_eq!(
            Lit::SignedMin.to_const(Type::I16),
            Some(Const::i16(i16::MIN))
        );
        assert_eq!(
            Lit::SignedMax.to_const(Type::I64),
            Some(Const::i64(i64::MAX))
        );
    }
}
