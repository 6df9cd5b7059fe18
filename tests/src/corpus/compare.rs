//! Comparing a run's outputs with the recorded ones, within per-output tolerances.
//!
//! Float rules: NaN equals NaN (any payload: Vulkan leaves payloads unspecified); -0 equals +0
//! unless the output is `bit_exact`; infinities only equal themselves; otherwise two finite values
//! are close enough if ANY of the stated bounds holds (absolute, relative to the expected value, or
//! distance in units in the last place). Integer elements must be equal.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;

use super::manifest::ScalarType;

/// How close an f32 result must be to the recorded one. All bounds default to zero, i.e. equal
/// as floats (so -0 == +0 and NaN == NaN).
#[derive(Debug, Clone, Copy, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tolerance {
    /// Largest accepted `|actual - expected|`.
    #[serde(default)]
    pub abs: f64,
    /// Largest accepted `|actual - expected| / |expected|`.
    #[serde(default)]
    pub rel: f64,
    /// Largest accepted distance in representable f32 values.
    #[serde(default)]
    pub ulp: u32,
    /// Compare bit patterns: -0 differs from +0 (NaNs still equal each other).
    #[serde(default)]
    pub bit_exact: bool,
}

impl Tolerance {
    /// Whether `actual` is close enough to `expected`.
    pub fn accepts(&self, expected: f32, actual: f32) -> bool {
        if expected.is_nan() || actual.is_nan() {
            return expected.is_nan() && actual.is_nan();
        }
        if self.bit_exact {
            return expected.to_bits() == actual.to_bits();
        }
        if expected == actual {
            return true;
        }
        if expected.is_infinite() || actual.is_infinite() {
            return false;
        }
        let diff = (f64::from(actual) - f64::from(expected)).abs();
        diff <= self.abs
            || diff <= self.rel * f64::from(expected).abs()
            || ulp_distance(expected, actual) <= u64::from(self.ulp)
    }
}

impl fmt::Display for Tolerance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.bit_exact {
            return f.write_str("bit-exact");
        }
        if self.abs == 0.0 && self.rel == 0.0 && self.ulp == 0 {
            return f.write_str("exact");
        }
        write!(
            f,
            "abs {:e}, rel {:e}, ulp {}",
            self.abs, self.rel, self.ulp
        )
    }
}

/// Distance between two finite f32 values counted in representable values; -0 and +0 are one
/// point.
pub fn ulp_distance(a: f32, b: f32) -> u64 {
    // Map the sign-magnitude bit patterns onto a line where adjacent floats are adjacent integers.
    fn ordinal(x: f32) -> i64 {
        let bits = i64::from(x.to_bits());
        if bits & 0x8000_0000 != 0 {
            -(bits & 0x7fff_ffff)
        } else {
            bits
        }
    }
    ordinal(a).abs_diff(ordinal(b))
}

/// Names one compared output of a case; its `Display` is the expected-output file stem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OutputKey {
    /// The buffer at `(set, binding)`: file `buffer-s<set>-b<binding>.bin`.
    Buffer {
        /// Descriptor set.
        set: u32,
        /// Binding.
        binding: u32,
    },
    /// A fragment render target: file `target-<location>.bin`.
    Target {
        /// Fragment output location.
        location: u32,
    },
    /// The storage image at `(set, binding)`: file `image-s<set>-b<binding>.bin`.
    Image {
        /// Descriptor set.
        set: u32,
        /// Binding.
        binding: u32,
    },
}

impl fmt::Display for OutputKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputKey::Buffer { set, binding } => write!(f, "buffer-s{set}-b{binding}"),
            OutputKey::Target { location } => write!(f, "target-{location}"),
            OutputKey::Image { set, binding } => write!(f, "image-s{set}-b{binding}"),
        }
    }
}

impl OutputKey {
    /// The expected-output file name.
    pub fn file_name(&self) -> String {
        format!("{self}.bin")
    }
}

/// What a case says about one output: its size, element type and tolerance.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputSpec {
    /// Which output.
    pub key: OutputKey,
    /// Bytes.
    pub bytes: usize,
    /// Element type (render targets are f32).
    pub elem: ScalarType,
    /// Tolerance for f32 elements.
    pub tolerance: Tolerance,
    /// For render targets, the width in pixels, so that reports can name the pixel.
    pub row_pixels: Option<u32>,
}

/// The raw little-endian bytes of every output of one run, keyed and ordered by [`OutputKey`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outputs {
    /// Output bytes by key.
    pub entries: BTreeMap<OutputKey, Vec<u8>>,
}

impl Outputs {
    /// The bytes of one output.
    pub fn get(&self, key: &OutputKey) -> Option<&[u8]> {
        self.entries.get(key).map(Vec::as_slice)
    }

    /// Adds or replaces one output.
    pub fn insert(&mut self, key: OutputKey, bytes: Vec<u8>) {
        self.entries.insert(key, bytes);
    }
}

/// The first difference found in one output.
#[derive(Debug, Clone, PartialEq)]
pub enum Difference {
    /// The run did not produce this output.
    Missing,
    /// The run produced a different number of bytes.
    Size {
        /// Recorded size.
        expected: usize,
        /// Produced size.
        actual: usize,
    },
    /// An element is out of tolerance.
    Element {
        /// Index of the first differing 32-bit element.
        index: usize,
        /// Recorded bits.
        expected: u32,
        /// Produced bits.
        actual: u32,
        /// How many elements differ in total.
        count: usize,
        /// Elements in the output.
        total: usize,
    },
}

/// One output that does not match, with enough context to find the problem.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// The case directory's name.
    pub case: String,
    /// The output's spec (key, element type, tolerance).
    pub spec: OutputSpec,
    /// What differs first.
    pub difference: Difference,
}

fn show(elem: ScalarType, bits: u32) -> String {
    match elem {
        ScalarType::F32 => format!("{:?} (0x{bits:08x})", f32::from_bits(bits)),
        ScalarType::I32 => format!("{} (0x{bits:08x})", bits as i32),
        ScalarType::U32 => format!("{bits} (0x{bits:08x})"),
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "case `{}`, output `{}`: ", self.case, self.spec.key)?;
        match &self.difference {
            Difference::Missing => f.write_str("not produced"),
            Difference::Size { expected, actual } => {
                write!(f, "{actual} bytes produced, {expected} recorded")
            }
            Difference::Element {
                index,
                expected,
                actual,
                count,
                total,
            } => {
                write!(f, "first difference at element {index}")?;
                if let Some(w) = self.spec.row_pixels.filter(|w| *w > 0) {
                    let pixel = index / 4;
                    let (x, y) = (pixel % w as usize, pixel / w as usize);
                    let channel = ["r", "g", "b", "a"][index % 4];
                    write!(f, " (pixel x={x} y={y}, channel {channel})")?;
                }
                write!(
                    f,
                    ": expected {}, got {}; {count} of {total} elements differ; tolerance {}",
                    show(self.spec.elem, *expected),
                    show(self.spec.elem, *actual),
                    self.spec.tolerance
                )
            }
        }
    }
}

fn words(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
}

/// Compares one output with its recording.
pub fn compare_output(
    case: &str,
    spec: &OutputSpec,
    expected: &[u8],
    actual: Option<&[u8]>,
) -> Option<Mismatch> {
    let mismatch = |difference| {
        Some(Mismatch {
            case: case.to_owned(),
            spec: spec.clone(),
            difference,
        })
    };
    let Some(actual) = actual else {
        return mismatch(Difference::Missing);
    };
    if actual.len() != expected.len() {
        return mismatch(Difference::Size {
            expected: expected.len(),
            actual: actual.len(),
        });
    }
    let mut first = None;
    let mut count = 0;
    for (index, (e, a)) in words(expected).zip(words(actual)).enumerate() {
        let ok = match spec.elem {
            ScalarType::F32 => spec.tolerance.accepts(f32::from_bits(e), f32::from_bits(a)),
            ScalarType::I32 | ScalarType::U32 => e == a,
        };
        if !ok {
            count += 1;
            first.get_or_insert((index, e, a));
        }
    }
    // Trailing bytes that do not fill a word are compared exactly.
    let tail = expected.len() / 4 * 4;
    if first.is_none() && expected[tail..] != actual[tail..] {
        count += 1;
        first = Some((tail / 4, 0, 1));
    }
    let (index, expected_bits, actual_bits) = first?;
    mismatch(Difference::Element {
        index,
        expected: expected_bits,
        actual: actual_bits,
        count,
        total: expected.len().div_ceil(4),
    })
}

/// Compares every output in `specs`; returns the mismatches, empty when all agree.
pub fn compare_outputs(
    case: &str,
    specs: &[OutputSpec],
    expected: &Outputs,
    actual: &Outputs,
) -> Vec<Mismatch> {
    specs
        .iter()
        .filter_map(|spec| {
            let Some(recorded) = expected.get(&spec.key) else {
                return Some(Mismatch {
                    case: case.to_owned(),
                    spec: spec.clone(),
                    difference: Difference::Missing,
                });
            };
            compare_output(case, spec, recorded, actual.get(&spec.key))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(elem: ScalarType, tolerance: Tolerance) -> OutputSpec {
        OutputSpec {
            key: OutputKey::Buffer { set: 0, binding: 1 },
            bytes: 8,
            elem,
            tolerance,
            row_pixels: None,
        }
    }

    fn bytes(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|f| f.to_le_bytes()).collect()
    }

    #[test]
    fn nan_and_signed_zero_rules() {
        let t = Tolerance::default();
        assert!(t.accepts(f32::NAN, -f32::NAN));
        assert!(!t.accepts(f32::NAN, 0.0));
        assert!(!t.accepts(1.0, f32::NAN));
        assert!(t.accepts(0.0, -0.0));
        let exact = Tolerance {
            bit_exact: true,
            ..Tolerance::default()
        };
        assert!(!exact.accepts(0.0, -0.0));
        assert!(exact.accepts(f32::NAN, f32::from_bits(0x7fc0_0001)));
        assert!(!t.accepts(f32::INFINITY, f32::MAX));
        assert!(t.accepts(f32::NEG_INFINITY, f32::NEG_INFINITY));
    }

    #[test]
    fn bounds_accept_and_reject() {
        let abs = Tolerance {
            abs: 0.5,
            ..Tolerance::default()
        };
        assert!(abs.accepts(1.0, 1.5));
        assert!(!abs.accepts(1.0, 1.5001));
        let rel = Tolerance {
            rel: 0.01,
            ..Tolerance::default()
        };
        assert!(rel.accepts(100.0, 101.0));
        assert!(!rel.accepts(100.0, 101.5));
        let ulp = Tolerance {
            ulp: 2,
            ..Tolerance::default()
        };
        let up2 = f32::from_bits(1.0f32.to_bits() + 2);
        let up3 = f32::from_bits(1.0f32.to_bits() + 3);
        assert!(ulp.accepts(1.0, up2));
        assert!(!ulp.accepts(1.0, up3));
        // Across zero: the smallest denormals either side are 2 apart.
        assert_eq!(
            ulp_distance(f32::from_bits(1), f32::from_bits(0x8000_0001)),
            2
        );
        assert_eq!(ulp_distance(0.0, -0.0), 0);
    }

    #[test]
    fn report_names_first_difference() {
        let s = spec(ScalarType::F32, Tolerance::default());
        let m = compare_output("c", &s, &bytes(&[1.0, 2.0]), Some(&bytes(&[1.0, 2.5])));
        let m = m.expect("2.0 vs 2.5 must differ");
        assert_eq!(
            m.difference,
            Difference::Element {
                index: 1,
                expected: 2.0f32.to_bits(),
                actual: 2.5f32.to_bits(),
                count: 1,
                total: 2
            }
        );
        let text = m.to_string();
        assert!(text.contains("case `c`"), "{text}");
        assert!(text.contains("buffer-s0-b1"), "{text}");
        assert!(text.contains("element 1"), "{text}");
        assert!(
            text.contains("expected 2.0") && text.contains("got 2.5"),
            "{text}"
        );
    }

    #[test]
    fn integers_are_exact_and_sizes_checked() {
        let s = spec(ScalarType::I32, Tolerance::default());
        let e: Vec<u8> = [0u32, 0].iter().flat_map(|w| w.to_le_bytes()).collect();
        // -0.0 bits: as floats they would be equal, as integers they are not.
        let a: Vec<u8> = [0u32, 0x8000_0000]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        assert!(compare_output("c", &s, &e, Some(&a)).is_some());
        assert!(compare_output("c", &s, &e, Some(&e)).is_none());
        let short = compare_output("c", &s, &e, Some(&e[..4])).map(|m| m.difference);
        assert_eq!(
            short,
            Some(Difference::Size {
                expected: 8,
                actual: 4
            })
        );
        let missing = compare_output("c", &s, &e, None).map(|m| m.difference);
        assert_eq!(missing, Some(Difference::Missing));
    }

    #[test]
    fn target_report_names_pixel() {
        let mut s = spec(ScalarType::F32, Tolerance::default());
        s.key = OutputKey::Target { location: 0 };
        s.row_pixels = Some(2);
        let e = bytes(&[0.0; 16]);
        let mut a = e.clone();
        // Element 13 = pixel 3 (x=1, y=1), channel g.
        a[52..56].copy_from_slice(&1.0f32.to_le_bytes());
        let text = compare_output("c", &s, &e, Some(&a))
            .map(|m| m.to_string())
            .unwrap_or_default();
        assert!(text.contains("pixel x=1 y=1, channel g"), "{text}");
    }
}
