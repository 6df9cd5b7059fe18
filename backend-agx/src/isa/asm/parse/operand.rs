//! Operands of one assembly line: splitting at commas, suffixes, registers, uniforms and
//! numbers, each error located at the byte where the offending text starts.

use crate::isa::{FSrc, Hint, IntSrc, PReg, RegClass, Src, UReg};

/// A parse error inside a line: the byte offset in the line and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Located {
    pub at: usize,
    pub message: String,
}

pub(super) type R<T> = Result<T, Located>;

pub(super) fn fail<T>(at: usize, message: impl Into<String>) -> R<T> {
    Err(Located {
        at,
        message: message.into(),
    })
}

/// One operand: its text (trimmed) and the byte offset in the line where it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Op<'a> {
    pub text: &'a str,
    pub at: usize,
}

impl<'a> Op<'a> {
    /// The operand without leading and trailing blanks, the offset moved accordingly.
    pub fn trimmed(self) -> Op<'a> {
        let start = self.text.len() - self.text.trim_start().len();
        Op {
            text: self.text.trim(),
            at: self.at + start,
        }
    }

    /// `KEYWORD VALUE` (`slot 0`, `tex 3`, `lsl 2`): the value, when the operand starts with
    /// the keyword followed by a blank.
    pub fn keyword(self, keyword: &str) -> Option<Op<'a>> {
        let rest = self.text.strip_prefix(keyword)?;
        if !rest.starts_with([' ', '\t']) {
            return None;
        }
        Some(
            Op {
                text: rest,
                at: self.at + keyword.len(),
            }
            .trimmed(),
        )
    }

    /// Like [`Op::keyword`], an error naming the expected form when the keyword is missing.
    pub fn expect_keyword(self, keyword: &str) -> R<Op<'a>> {
        self.keyword(keyword).map_or_else(
            || {
                fail(
                    self.at,
                    format!("expected `{keyword} N`, found `{}`", self.text),
                )
            },
            Ok,
        )
    }
}

/// Splits the operand list of a line (the text after the mnemonic, starting at byte `at`)
/// at the commas outside braces.
pub(super) fn split_operands(text: &str, at: usize) -> R<Vec<Op<'_>>> {
    let mut ops = Vec::new();
    if text.trim().is_empty() {
        return Ok(ops);
    }
    let mut depth = 0u32;
    let mut start = 0;
    let mut open_at = 0;
    for (i, c) in text.char_indices() {
        match c {
            '{' => {
                if depth > 0 {
                    return fail(at + i, "nested `{` in a register run");
                }
                depth = 1;
                open_at = i;
            }
            '}' => {
                if depth == 0 {
                    return fail(at + i, "`}` without a matching `{`");
                }
                depth = 0;
            }
            ',' if depth == 0 => {
                ops.push(piece(text, start, i, at)?);
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth > 0 {
        return fail(at + open_at, "`{` without a matching `}`");
    }
    ops.push(piece(text, start, text.len(), at)?);
    Ok(ops)
}

fn piece(text: &str, start: usize, end: usize, at: usize) -> R<Op<'_>> {
    let op = Op {
        text: &text[start..end],
        at: at + start,
    }
    .trimmed();
    if op.text.is_empty() {
        return fail(at + start, "empty operand");
    }
    Ok(op)
}

/// The operand suffixes of the disassembly syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Suffix {
    Cache,
    Discard,
    Sat,
    Abs,
    Neg,
    Sx,
    Zx,
}

impl Suffix {
    const ALL: [(&'static str, Suffix); 7] = [
        ("cache", Suffix::Cache),
        ("discard", Suffix::Discard),
        ("sat", Suffix::Sat),
        ("abs", Suffix::Abs),
        ("neg", Suffix::Neg),
        ("sx", Suffix::Sx),
        ("zx", Suffix::Zx),
    ];

    fn name(self) -> &'static str {
        Suffix::ALL
            .iter()
            .find(|(_, s)| *s == self)
            .map_or("?", |(n, _)| n)
    }
}

/// An operand split into its base (`r5`, `0.5`, `{r0, r1}`) and its suffixes, which the
/// instruction's parser takes one by one; [`Suffixed::done`] rejects any left over.
#[derive(Debug, Clone)]
pub(super) struct Suffixed<'a> {
    pub base: Op<'a>,
    suffixes: Vec<(Suffix, usize)>,
}

impl<'a> Suffixed<'a> {
    pub fn new(op: Op<'a>) -> R<Suffixed<'a>> {
        let mut base = op.text;
        let mut suffixes = Vec::new();
        // Suffixes are peeled from the end so that a float's own `.` (`0.5.neg`) stays in the
        // base: only a known suffix name counts.
        while let Some(dot) = base.rfind('.') {
            let name = &base[dot + 1..];
            let Some(&(_, suffix)) = Suffix::ALL.iter().find(|(n, _)| *n == name) else {
                break;
            };
            if suffixes.iter().any(|&(s, _)| s == suffix) {
                return fail(op.at + dot, format!("`.{name}` given twice"));
            }
            suffixes.push((suffix, op.at + dot));
            base = &base[..dot];
        }
        suffixes.reverse();
        Ok(Suffixed {
            base: Op {
                text: base,
                at: op.at,
            },
            suffixes,
        })
    }

    /// Removes `suffix`, returning whether it was there.
    pub fn take(&mut self, suffix: Suffix) -> bool {
        let before = self.suffixes.len();
        self.suffixes.retain(|&(s, _)| s != suffix);
        self.suffixes.len() != before
    }

    /// The register-cache hint (`.cache` or `.discard`; both is an error).
    pub fn hint(&mut self) -> R<Hint> {
        let cache = self.suffixes.iter().find(|(s, _)| *s == Suffix::Cache);
        let discard = self.suffixes.iter().find(|(s, _)| *s == Suffix::Discard);
        if let (Some(_), Some(&(_, at))) = (cache, discard) {
            return fail(at, "`.cache` and `.discard` together");
        }
        Ok(if self.take(Suffix::Cache) {
            Hint::Cache
        } else if self.take(Suffix::Discard) {
            Hint::Discard
        } else {
            Hint::None
        })
    }

    /// Errors on a suffix no one took.
    pub fn done(self) -> R<()> {
        match self.suffixes.first() {
            Some(&(s, at)) => fail(at, format!("`.{}` is not allowed here", s.name())),
            None => Ok(()),
        }
    }
}

/// An integer literal: decimal, `0x` hex or `0b` binary, with an optional sign.
pub(super) fn int(op: Op<'_>) -> R<i64> {
    parse_int(op.text).ok_or_else(|| Located {
        at: op.at,
        message: format!("`{}` is not an integer", op.text),
    })
}

fn parse_int(text: &str) -> Option<i64> {
    let (neg, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let magnitude = if let Some(hex) = digits.strip_prefix("0x") {
        i64::from_str_radix(hex, 16).ok()?
    } else if let Some(bin) = digits.strip_prefix("0b") {
        i64::from_str_radix(bin, 2).ok()?
    } else if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        digits.parse().ok()?
    } else {
        return None;
    };
    Some(if neg { -magnitude } else { magnitude })
}

/// An integer literal in `min..=max`.
pub(super) fn int_in(op: Op<'_>, min: i64, max: i64, what: &str) -> R<i64> {
    let v = int(op)?;
    if !(min..=max).contains(&v) {
        return fail(
            op.at,
            format!("{what} {v} is out of range ({min} to {max})"),
        );
    }
    Ok(v)
}

/// An unsigned 8-bit field (`u8` operand of the instruction type).
pub(super) fn u8_in(op: Op<'_>, max: u8, what: &str) -> R<u8> {
    // The range check makes the conversion exact.
    Ok(int_in(op, 0, i64::from(max), what)? as u8)
}

/// A signed 16-bit field.
pub(super) fn i16_in(op: Op<'_>, what: &str) -> R<i16> {
    Ok(int_in(op, i64::from(i16::MIN), i64::from(i16::MAX), what)? as i16)
}

/// `NAME` (a keyword from a fixed table).
pub(super) fn choice<T: Copy>(op: Op<'_>, table: &[(&str, T)], what: &str) -> R<T> {
    table
        .iter()
        .find(|(n, _)| *n == op.text)
        .map(|&(_, v)| v)
        .ok_or_else(|| {
            let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
            Located {
                at: op.at,
                message: format!("`{}` is not {what} (one of: {})", op.text, names.join(", ")),
            }
        })
}

/// The number after a register or uniform letter, below `limit`.
fn number_below(text: &str, at: usize, limit: u32, what: &str) -> R<u16> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) || text.len() > 5 {
        return fail(at, format!("`{text}` is not a {what} number"));
    }
    let n: u32 = text.parse().unwrap_or(u32::MAX);
    if n >= limit {
        return fail(
            at,
            format!("{what} {n} does not exist (0 to {})", limit - 1),
        );
    }
    Ok(n as u16)
}

/// `rN`, `rNl`, `rNh` or `rN_rM` (M = N + 1).
pub(super) fn reg(op: Op<'_>) -> R<PReg> {
    let t = op.text;
    let Some(body) = t.strip_prefix('r') else {
        return fail(
            op.at,
            format!("expected a register (`r5`, `r5l`, `r4_r5`), found `{t}`"),
        );
    };
    let at = op.at + 1;
    if let Some((first, second)) = body.split_once("_r") {
        let n = number_below(first, at, 127, "register")?;
        let m = number_below(second, at + first.len() + 2, 128, "register")?;
        if m != n + 1 {
            return fail(
                op.at,
                format!("`{t}`: a register pair is two consecutive registers"),
            );
        }
        return Ok(PReg::r64(n));
    }
    if let Some(n) = body.strip_suffix('l') {
        return Ok(PReg::lo(number_below(n, at, 128, "register")?));
    }
    if let Some(n) = body.strip_suffix('h') {
        return Ok(PReg::hi(number_below(n, at, 128, "register")?));
    }
    Ok(PReg::r32(number_below(body, at, 128, "register")?))
}

/// A 16-bit register `rNl`/`rNh`.
pub(super) fn half(op: Op<'_>) -> R<PReg> {
    let r = reg(op)?;
    if r.class != RegClass::H16 {
        return fail(
            op.at,
            format!("expected a 16-bit register (`r5l`), found `{}`", op.text),
        );
    }
    Ok(r)
}

/// A 32-bit register `rN`.
pub(super) fn reg32(op: Op<'_>) -> R<PReg> {
    let r = reg(op)?;
    if r.class != RegClass::R32 {
        return fail(
            op.at,
            format!("expected a 32-bit register (`r5`), found `{}`", op.text),
        );
    }
    Ok(r)
}

/// `uN`, `uNl`, `uNh` or `uN_uM`.
pub(super) fn uniform(op: Op<'_>) -> R<UReg> {
    let t = op.text;
    let Some(body) = t.strip_prefix('u') else {
        return fail(
            op.at,
            format!("expected a uniform (`u5`, `u5l`, `u4_u5`), found `{t}`"),
        );
    };
    let at = op.at + 1;
    if let Some((first, second)) = body.split_once("_u") {
        let n = number_below(first, at, 255, "uniform")?;
        let m = number_below(second, at + first.len() + 2, 256, "uniform")?;
        if m != n + 1 {
            return fail(
                op.at,
                format!("`{t}`: a uniform pair is two consecutive uniforms"),
            );
        }
        return Ok(UReg::U64(n));
    }
    if let Some(n) = body.strip_suffix('l') {
        return Ok(UReg::U16(2 * number_below(n, at, 256, "uniform")?));
    }
    if let Some(n) = body.strip_suffix('h') {
        return Ok(UReg::U16(2 * number_below(n, at, 256, "uniform")? + 1));
    }
    Ok(UReg::U32(number_below(body, at, 256, "uniform")?))
}

/// A run of registers: `{r0, r1, r2}` (consecutive, all 16- or all 32-bit) or one register.
pub(super) fn run(op: Op<'_>) -> R<PReg> {
    let Some(inner) = op.text.strip_prefix('{') else {
        let r = reg(op)?;
        if r.class == RegClass::R64 {
            return fail(op.at, "a register run is written `{r4, r5}`, not as a pair");
        }
        return Ok(r);
    };
    let Some(inner) = inner.strip_suffix('}') else {
        return fail(op.at, "a register run ends with `}`");
    };
    let elements = split_operands(inner, op.at + 1)?;
    let mut first: Option<PReg> = None;
    for (i, e) in elements.iter().enumerate() {
        let r = reg(*e)?;
        let Some(f) = first else {
            if r.class == RegClass::R64 {
                return fail(e.at, "a run lists single registers");
            }
            first = Some(r);
            continue;
        };
        let step = if f.class == RegClass::H16 { 1 } else { 2 };
        if r.class != f.class || u32::from(r.half) != u32::from(f.half) + step * i as u32 {
            return fail(
                e.at,
                format!(
                    "`{}` does not follow `{}` in a run of consecutive registers",
                    e.text, f
                ),
            );
        }
    }
    let (Some(f), Ok(count)) = (first, u8::try_from(elements.len())) else {
        return fail(op.at, "empty register run");
    };
    Ok(match (f.class, count) {
        (_, 1) => f,
        (RegClass::H16, n) => PReg::vec16(f.half, n),
        (_, n) => PReg {
            half: f.half,
            class: RegClass::Vec32(n),
        },
    })
}

/// Whether the text starts like a number (digit, sign).
fn numeric(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+')
}

/// An integer source: register (with its hint), uniform or 8-bit immediate.
pub(super) fn src(s: &mut Suffixed<'_>) -> R<Src<PReg>> {
    let op = s.base;
    if op.text.starts_with('r') {
        let hint = s.hint()?;
        return Ok(Src::Reg {
            reg: reg(op)?,
            hint,
        });
    }
    if op.text.starts_with('u') {
        return Ok(Src::Uniform(uniform(op)?));
    }
    if numeric(op.text) {
        return Ok(Src::Imm(u8_in(op, u8::MAX, "immediate")?));
    }
    fail(
        op.at,
        format!(
            "expected a register, uniform or immediate, found `{}`",
            op.text
        ),
    )
}

/// An integer source with no suffix other than the hint.
pub(super) fn plain_src(op: Op<'_>) -> R<Src<PReg>> {
    let mut s = Suffixed::new(op)?;
    let v = src(&mut s)?;
    s.done()?;
    Ok(v)
}

/// An integer source with optional `.sx`.
pub(super) fn int_src(s: &mut Suffixed<'_>) -> R<IntSrc<PReg>> {
    let src = src(s)?;
    Ok(IntSrc {
        src,
        sext: s.take(Suffix::Sx),
    })
}

/// A float source: register, uniform or one of the 256 8-bit float immediates, with `.abs`
/// and `.neg`.
pub(super) fn fsrc(op: Op<'_>) -> R<FSrc<PReg>> {
    let mut s = Suffixed::new(op)?;
    let base = s.base;
    let src = if numeric(base.text) {
        Src::Imm(float_imm(base)?)
    } else {
        src(&mut s)?
    };
    let v = FSrc {
        src,
        abs: s.take(Suffix::Abs),
        neg: s.take(Suffix::Neg),
    };
    s.done()?;
    Ok(v)
}

/// A float literal that is one of the 8-bit float immediates; its code.
pub(super) fn float_imm(op: Op<'_>) -> R<u8> {
    let Ok(x) = op.text.parse::<f32>() else {
        return fail(op.at, format!("`{}` is not a number", op.text));
    };
    crate::isa::float_imm(x).ok_or_else(|| Located {
        at: op.at,
        message: format!("{x:?} is not one of the 256 8-bit float immediates"),
    })
}

/// A destination register with optional `.cache`; `sat` says whether `.sat` is accepted
/// (returned as the second value).
pub(super) fn dst(op: Op<'_>, sat: bool) -> R<(crate::isa::Dst<PReg>, bool)> {
    let mut s = Suffixed::new(op)?;
    let reg = reg(s.base)?;
    let cache = s.take(Suffix::Cache);
    let saturate = sat && s.take(Suffix::Sat);
    s.done()?;
    Ok((crate::isa::Dst { reg, cache }, saturate))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(text: &str) -> Op<'_> {
        Op { text, at: 0 }
    }

    #[test]
    fn operands_split_at_commas_outside_braces() {
        let ops = split_operands(" {r0, r1}, u4_u5 , 0", 10).unwrap();
        let texts: Vec<_> = ops.iter().map(|o| (o.text, o.at)).collect();
        assert_eq!(texts, [("{r0, r1}", 11), ("u4_u5", 21), ("0", 29)]);
        assert_eq!(split_operands("a,,b", 0).unwrap_err().at, 2);
        assert_eq!(split_operands("{r0, r1", 3).unwrap_err().at, 3);
    }

    #[test]
    fn suffixes_leave_a_float_whole() {
        let mut s = Suffixed::new(op("0.5.abs.neg")).unwrap();
        assert_eq!(s.base.text, "0.5");
        assert!(s.take(Suffix::Neg) && s.take(Suffix::Abs));
        s.done().unwrap();
        let s = Suffixed::new(op("r1.cache.sat")).unwrap();
        assert_eq!(s.done().unwrap_err().at, 2);
    }

    #[test]
    fn registers_and_uniforms() {
        assert_eq!(reg(op("r5")).unwrap(), PReg::r32(5));
        assert_eq!(reg(op("r5h")).unwrap(), PReg::hi(5));
        assert_eq!(reg(op("r4_r5")).unwrap(), PReg::r64(4));
        assert!(reg(op("r4_r6")).is_err());
        assert!(reg(op("r128")).is_err());
        assert_eq!(uniform(op("u3h")).unwrap(), UReg::U16(7));
        assert_eq!(uniform(op("u4_u5")).unwrap(), UReg::U64(4));
        assert_eq!(run(op("{r2l, r2h, r3l}")).unwrap(), PReg::vec16(4, 3));
        assert_eq!(run(op("{r2, r3}")).unwrap().class, RegClass::Vec32(2));
        assert!(run(op("{r2, r4}")).is_err());
    }

    #[test]
    fn numbers() {
        assert_eq!(int(op("0x1f")).unwrap(), 31);
        assert_eq!(int(op("-6")).unwrap(), -6);
        assert_eq!(int(op("0b0101")).unwrap(), 5);
        assert!(int(op("12a")).is_err());
        assert_eq!(
            float_imm(op("0.5")).unwrap(),
            crate::isa::float_imm(0.5).unwrap()
        );
        assert!(float_imm(op("0.3")).is_err());
    }
}
