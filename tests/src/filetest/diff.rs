//! The readable diff a failing filetest prints: a unified line diff (`similar`), expected
//! against actual, with three lines of context.

/// `expected` against `actual` as a unified diff (`-` expected, `+` actual).
pub fn line_diff(expected: &str, actual: &str) -> String {
    similar::TextDiff::from_lines(expected, actual)
        .unified_diff()
        .context_radius(3)
        .header("expected", "actual")
        .to_string()
}
