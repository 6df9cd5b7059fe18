//! Telling the input languages apart by content, as the spirv-tools do: a SPIR-V module starts
//! with its magic number, TGSI text with a processor header, graph-IR text with `function`.

use core::fmt;

/// The language of a shader given as bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// A SPIR-V binary module (either byte order).
    SpirV,
    /// TGSI text.
    Tgsi,
    /// agxc graph-IR text.
    Ir,
}

impl fmt::Display for SourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SourceKind::SpirV => "SPIR-V",
            SourceKind::Tgsi => "TGSI",
            SourceKind::Ir => "graph IR",
        })
    }
}

/// SPIR-V's magic number (SPIR-V specification, section 3.1 "Magic Number").
pub const SPIRV_MAGIC: u32 = 0x0723_0203;

/// TGSI processor headers (Mesa `tgsi_text.c`): a whole word, case-insensitive.
const TGSI_HEADERS: [&str; 6] = ["FRAG", "VERT", "GEOM", "TESS_CTRL", "TESS_EVAL", "COMP"];

impl SourceKind {
    /// Detects the language, or `None` if the bytes are none of the three.
    pub fn detect(bytes: &[u8]) -> Option<SourceKind> {
        if bytes.len() >= 4 {
            let word = [bytes[0], bytes[1], bytes[2], bytes[3]];
            if u32::from_le_bytes(word) == SPIRV_MAGIC || u32::from_be_bytes(word) == SPIRV_MAGIC {
                return Some(SourceKind::SpirV);
            }
        }
        let text = core::str::from_utf8(bytes).ok()?;
        let first = first_word(text)?;
        if first == "function" {
            return Some(SourceKind::Ir);
        }
        // Old dumps write `FRAG1.1`; the version suffix is part of the header word.
        let upper = first.to_ascii_uppercase();
        let stem = upper.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
        TGSI_HEADERS.contains(&stem).then_some(SourceKind::Tgsi)
    }
}

/// The first whitespace-separated word, skipping `;` line comments (graph IR allows them).
fn first_word(text: &str) -> Option<&str> {
    text.lines()
        .map(|line| line.split(';').next().unwrap_or(""))
        .flat_map(str::split_whitespace)
        .next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_each_language() {
        let spv = [0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0];
        assert_eq!(SourceKind::detect(&spv), Some(SourceKind::SpirV));
        let spv_be = [0x07, 0x23, 0x02, 0x03];
        assert_eq!(SourceKind::detect(&spv_be), Some(SourceKind::SpirV));
        assert_eq!(
            SourceKind::detect(b"FRAG\nDCL IN[0]\nEND\n"),
            Some(SourceKind::Tgsi)
        );
        assert_eq!(SourceKind::detect(b"  comp\n"), Some(SourceKind::Tgsi));
        assert_eq!(SourceKind::detect(b"FRAG1.1\n"), Some(SourceKind::Tgsi));
        assert_eq!(
            SourceKind::detect(b"; a dump\nfunction @main compute {\n"),
            Some(SourceKind::Ir)
        );
    }

    #[test]
    fn rejects_others() {
        assert_eq!(SourceKind::detect(b""), None);
        assert_eq!(SourceKind::detect(b"FRAGMENT\n"), None);
        assert_eq!(SourceKind::detect(&[0xff, 0xfe, 0x00]), None);
        assert_eq!(SourceKind::detect(b"#version 450\nvoid main(){}"), None);
    }
}
