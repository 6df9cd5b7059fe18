//! A minimal JSON writer for the viewer's data (a few value kinds, written in order, so the
//! output is deterministic). Strings escape `<` and `>` too, so that the text can sit inside
//! an HTML `<script>` element without closing it.

use std::fmt::Write as _;

/// A JSON text being written.
pub(super) struct Json {
    out: String,
}

impl Json {
    pub fn new() -> Json {
        Json { out: String::new() }
    }

    pub fn len(&self) -> usize {
        self.out.len()
    }

    /// The whole document: one object.
    pub fn object(&mut self, f: impl FnOnce(&mut Object<'_>)) {
        Value { out: &mut self.out }.object(f);
    }

    pub fn finish(self) -> String {
        self.out
    }
}

/// A place for one value.
pub(super) struct Value<'a> {
    out: &'a mut String,
}

impl Value<'_> {
    pub fn int(self, v: i64) {
        let _ = write!(self.out, "{v}");
    }

    /// A finite number (non-finite ones as `null`), in Rust's shortest round-trip form.
    pub fn num(self, v: f64) {
        if v.is_finite() {
            let _ = write!(self.out, "{v}");
        } else {
            self.out.push_str("null");
        }
    }

    pub fn bool(self, v: bool) {
        self.out.push_str(if v { "true" } else { "false" });
    }

    pub fn null(self) {
        self.out.push_str("null");
    }

    pub fn str(self, s: &str) {
        self.out.push('"');
        for c in s.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '<' => self.out.push_str("\\u003c"),
                '>' => self.out.push_str("\\u003e"),
                '&' => self.out.push_str("\\u0026"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(self.out, "\\u{:04x}", c as u32);
                }
                c => self.out.push(c),
            }
        }
        self.out.push('"');
    }

    pub fn object(self, f: impl FnOnce(&mut Object<'_>)) {
        self.out.push('{');
        let mut o = Object {
            out: self.out,
            first: true,
        };
        f(&mut o);
        o.out.push('}');
    }

    pub fn array(self, f: impl FnOnce(&mut Array<'_>)) {
        self.out.push('[');
        let mut a = Array {
            out: self.out,
            first: true,
        };
        f(&mut a);
        a.out.push(']');
    }
}

/// An object being written: `key(...)` then the value.
pub(super) struct Object<'a> {
    out: &'a mut String,
    first: bool,
}

impl Object<'_> {
    pub fn key(&mut self, k: &str) -> Value<'_> {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        Value { out: self.out }.str(k);
        self.out.push(':');
        Value { out: self.out }
    }
}

/// An array being written.
pub(super) struct Array<'a> {
    out: &'a mut String,
    first: bool,
}

impl Array<'_> {
    fn item(&mut self) -> Value<'_> {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        Value { out: self.out }
    }

    pub fn int(&mut self, v: i64) {
        self.item().int(v);
    }

    pub fn str(&mut self, s: &str) {
        self.item().str(s);
    }

    pub fn object(&mut self, f: impl FnOnce(&mut Object<'_>)) {
        self.item().object(f);
    }

    pub fn array(&mut self, f: impl FnOnce(&mut Array<'_>)) {
        self.item().array(f);
    }
}
