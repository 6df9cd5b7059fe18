//! Deterministic input generation: the one implementation every consumer of a corpus uses.
//!
//! Inputs are not stored in the corpus; a generator spec in `case.toml` plus this code is the
//! definition of a case's inputs. Changing what a spec produces changes every recorded expected
//! output, so the algorithms below are part of the corpus format and must stay fixed: the random
//! source is SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
//! OOPSLA 2014), and each generator's mapping from random words to values is documented on it.

use serde::Deserialize;

use super::error::Problem;

/// How to fill a run of bytes. In TOML, `init = "zero"` or `init = { f32_uniform = { ... } }`.
///
/// 32-bit generators write little-endian words; `u8_*` generators write bytes. A generator fills
/// every element that fits; a list shorter than the space leaves the rest zero.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Init {
    /// All zero bytes.
    #[default]
    Zero,
    /// f32 uniform in `[min, max)`: `min + (max - min) * u`, computed in f64 and rounded, where
    /// `u = (next >> 40) / 2^24`.
    F32Uniform {
        /// Lower bound.
        min: f32,
        /// Upper bound.
        max: f32,
        /// Random seed.
        seed: u64,
    },
    /// Like `f32_uniform`, but one element in eight (when `next % 8 == 0`) is replaced by
    /// `SPECIAL_F32[next % len]`: NaN, infinities, signed zeros, denormals and extremes.
    F32Special {
        /// Lower bound of the normal values.
        min: f32,
        /// Upper bound of the normal values.
        max: f32,
        /// Random seed.
        seed: u64,
    },
    /// i32 uniform in `[min, max]`: `min + next % (max - min + 1)`.
    I32Uniform {
        /// Lower bound (inclusive).
        min: i32,
        /// Upper bound (inclusive).
        max: i32,
        /// Random seed.
        seed: u64,
    },
    /// u32 uniform in `[min, max]`: `min + next % (max - min + 1)`.
    U32Uniform {
        /// Lower bound (inclusive).
        min: u32,
        /// Upper bound (inclusive).
        max: u32,
        /// Random seed.
        seed: u64,
    },
    /// Bytes uniform in `[min, max]` (default 0 to 255): `min + next % (max - min + 1)`.
    U8Uniform {
        /// Lower bound (inclusive).
        #[serde(default)]
        min: u8,
        /// Upper bound (inclusive).
        #[serde(default = "u8_max")]
        max: u8,
        /// Random seed.
        seed: u64,
    },
    /// Every element the same f32.
    F32Constant(f32),
    /// Every element the same i32.
    I32Constant(i32),
    /// Every element the same u32.
    U32Constant(u32),
    /// Element `i` is `start + i * step`, computed in f64 and rounded to f32.
    F32Ramp {
        /// First value.
        start: f32,
        /// Increment.
        step: f32,
    },
    /// Element `i` is `start + i * step`, wrapping.
    I32Ramp {
        /// First value.
        start: i32,
        /// Increment.
        step: i32,
    },
    /// Element `i` is `start + i * step`, wrapping.
    U32Ramp {
        /// First value.
        start: u32,
        /// Increment.
        step: u32,
    },
    /// Explicit f32 values.
    F32List(Vec<f32>),
    /// Explicit i32 values.
    I32List(Vec<i32>),
    /// Explicit u32 values.
    U32List(Vec<u32>),
    /// Explicit bytes.
    U8List(Vec<u8>),
    /// Byte ranges, each filled by its own generator; bytes no segment covers are zero.
    Segments(Vec<Segment>),
    /// An array of records of `stride` bytes (as many as fit), each field filled from its own
    /// generator's sequence: record `r`'s field gets elements `r * words .. (r + 1) * words`.
    /// Use this for arrays of structs that mix floats and integers.
    Records {
        /// Bytes per record.
        stride: usize,
        /// The generated fields; other bytes are zero.
        fields: Vec<Field>,
    },
}

fn u8_max() -> u8 {
    u8::MAX
}

/// A byte range of a [`Init::Segments`] fill.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Segment {
    /// First byte.
    pub offset: usize,
    /// Length in bytes.
    pub bytes: usize,
    /// Contents.
    pub init: Init,
}

/// A field of every record of an [`Init::Records`] fill.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Field {
    /// Byte offset within the record.
    pub offset: usize,
    /// 32-bit words in the field (4 for a `vec4`).
    #[serde(default = "one_word")]
    pub words: usize,
    /// The generator whose sequence the field takes its values from.
    pub init: Init,
}

fn one_word() -> usize {
    1
}

/// The values `f32_special` mixes in, as bit patterns so that NaN and -0 are exact.
pub const SPECIAL_F32: [u32; 14] = [
    0x7fc0_0000, // quiet NaN
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x0000_0001, // smallest denormal
    0x8000_0001, // smallest negative denormal
    0x007f_ffff, // largest denormal
    0x0080_0000, // smallest normal
    0x7f7f_ffff, // largest finite
    0xff7f_ffff, // most negative finite
    0x3f80_0000, // 1.0
    0xbf80_0000, // -1.0
    0x4b00_0000, // 2^23: where f32 stops having fraction bits
];

/// SplitMix64: tiny, fast, and fully specified, so any consumer can reproduce the inputs (the
/// workspace's one generator, `rand_xoshiro`'s, through [`agxc_egraph::opt::synth::Rng`]).
pub type SplitMix64 = agxc_egraph::opt::synth::Rng;

/// A uniform f64 in [0, 1) with 24 random bits (exact in f32).
fn unit(rng: &mut SplitMix64) -> f64 {
    (rng.next_u64() >> 40) as f64 / (1u64 << 24) as f64
}

fn f32_in(rng: &mut SplitMix64, min: f32, max: f32) -> f32 {
    (f64::from(min) + (f64::from(max) - f64::from(min)) * unit(rng)) as f32
}

fn int_in(rng: &mut SplitMix64, min: i64, max: i64) -> i64 {
    let span = (max - min) as u64 + 1;
    min + (rng.next_u64() % span) as i64
}

impl Init {
    /// Bytes per generated element: 1 for `u8_*`, 4 otherwise (0 for fills without a sequence).
    pub fn element_bytes(&self) -> usize {
        match self {
            Init::U8Uniform { .. } | Init::U8List(_) => 1,
            Init::Zero | Init::Segments(_) | Init::Records { .. } => 0,
            _ => 4,
        }
    }

    /// Checks ranges and that explicit data fits in `bytes`.
    pub fn validate(&self, bytes: usize) -> Result<(), Problem> {
        let empty = |min: String, max: String| Err(Problem::EmptyRange { min, max });
        let fits = |needed: usize| {
            if needed > bytes {
                Err(Problem::TooLong {
                    needed,
                    available: bytes,
                })
            } else {
                Ok(())
            }
        };
        match self {
            Init::F32Uniform { min, max, .. } | Init::F32Special { min, max, .. }
                if min > max || !min.is_finite() || !max.is_finite() =>
            {
                empty(min.to_string(), max.to_string())
            }
            Init::I32Uniform { min, max, .. } if min > max => {
                empty(min.to_string(), max.to_string())
            }
            Init::U32Uniform { min, max, .. } if min > max => {
                empty(min.to_string(), max.to_string())
            }
            Init::U8Uniform { min, max, .. } if min > max => {
                empty(min.to_string(), max.to_string())
            }
            Init::F32List(v) => fits(v.len() * 4),
            Init::I32List(v) => fits(v.len() * 4),
            Init::U32List(v) => fits(v.len() * 4),
            Init::U8List(v) => fits(v.len()),
            Init::Segments(segments) => segments.iter().try_for_each(|s| {
                fits(s.offset.saturating_add(s.bytes))?;
                s.init.validate(s.bytes)
            }),
            Init::Records { stride, fields } => {
                if *stride == 0 {
                    return Err(Problem::OutOfRange {
                        value: "0".to_owned(),
                        allowed: "a record stride of at least 1 byte",
                    });
                }
                fields.iter().try_for_each(|f| {
                    if f.words == 0 {
                        return Err(Problem::OutOfRange {
                            value: "0".to_owned(),
                            allowed: "a field of at least 1 word",
                        });
                    }
                    // Saturating: sizes come from the manifest and may be absurd.
                    let needed = f.words.saturating_mul(4).saturating_add(f.offset);
                    if needed > *stride {
                        return Err(Problem::TooLong {
                            needed,
                            available: *stride,
                        });
                    }
                    f.init.validate(f.words * 4 * (bytes / stride))
                })
            }
            _ => Ok(()),
        }
    }

    /// The `bytes` bytes this spec describes. Call [`Init::validate`] first: lists that do not
    /// fit are truncated here.
    pub fn fill(&self, bytes: usize) -> Vec<u8> {
        let mut out = vec![0u8; bytes];
        self.fill_into(&mut out);
        out
    }

    fn fill_into(&self, out: &mut [u8]) {
        match self {
            Init::Zero => out.fill(0),
            Init::Segments(segments) => {
                out.fill(0);
                for s in segments {
                    let end = s.offset.saturating_add(s.bytes).min(out.len());
                    if let Some(dst) = out.get_mut(s.offset.min(end)..end) {
                        s.init.fill_into(dst);
                    }
                }
            }
            Init::Records { stride, fields } => {
                out.fill(0);
                let records = out.len() / (*stride).max(1);
                // `validate` guarantees each field is 1 or more words within the stride.
                for f in fields.iter().filter(|f| f.words > 0) {
                    let values = f.init.fill(f.words * 4 * records);
                    for (r, chunk) in values.chunks_exact(f.words * 4).enumerate() {
                        let at = r * stride + f.offset;
                        if let Some(dst) = out.get_mut(at..at + chunk.len()) {
                            dst.copy_from_slice(chunk);
                        }
                    }
                }
            }
            Init::U8Uniform { min, max, seed } => {
                let mut rng = SplitMix64::new(*seed);
                for b in out.iter_mut() {
                    *b = int_in(&mut rng, i64::from(*min), i64::from(*max)) as u8;
                }
            }
            Init::U8List(v) => {
                out.fill(0);
                for (b, v) in out.iter_mut().zip(v) {
                    *b = *v;
                }
            }
            _ => {
                out.fill(0);
                let mut seq = WordSequence::new(self);
                for w in out.chunks_exact_mut(4) {
                    w.copy_from_slice(&seq.next_word().to_le_bytes());
                }
            }
        }
    }
}

/// The element sequence of a 32-bit generator.
struct WordSequence<'a> {
    init: &'a Init,
    rng: SplitMix64,
    index: usize,
}

impl<'a> WordSequence<'a> {
    fn new(init: &'a Init) -> Self {
        let seed = match init {
            Init::F32Uniform { seed, .. }
            | Init::F32Special { seed, .. }
            | Init::I32Uniform { seed, .. }
            | Init::U32Uniform { seed, .. } => *seed,
            _ => 0,
        };
        WordSequence {
            init,
            rng: SplitMix64::new(seed),
            index: 0,
        }
    }

    fn next_word(&mut self) -> u32 {
        let i = self.index;
        self.index += 1;
        let rng = &mut self.rng;
        match self.init {
            Init::F32Uniform { min, max, .. } => f32_in(rng, *min, *max).to_bits(),
            Init::F32Special { min, max, .. } => {
                if rng.next_u64().is_multiple_of(8) {
                    SPECIAL_F32[(rng.next_u64() % SPECIAL_F32.len() as u64) as usize]
                } else {
                    f32_in(rng, *min, *max).to_bits()
                }
            }
            Init::I32Uniform { min, max, .. } => {
                int_in(rng, i64::from(*min), i64::from(*max)) as i32 as u32
            }
            Init::U32Uniform { min, max, .. } => {
                int_in(rng, i64::from(*min), i64::from(*max)) as u32
            }
            Init::F32Constant(v) => v.to_bits(),
            Init::I32Constant(v) => *v as u32,
            Init::U32Constant(v) => *v,
            Init::F32Ramp { start, step } => {
                ((f64::from(*start) + i as f64 * f64::from(*step)) as f32).to_bits()
            }
            Init::I32Ramp { start, step } => start.wrapping_add(step.wrapping_mul(i as i32)) as u32,
            Init::U32Ramp { start, step } => start.wrapping_add(step.wrapping_mul(i as u32)),
            Init::F32List(v) => v.get(i).map_or(0, |f| f.to_bits()),
            Init::I32List(v) => v.get(i).map_or(0, |x| *x as u32),
            Init::U32List(v) => v.get(i).copied().unwrap_or(0),
            // Byte and composite generators are handled by `fill_into` and never get here.
            Init::Zero
            | Init::U8Uniform { .. }
            | Init::U8List(_)
            | Init::Segments(_)
            | Init::Records { .. } => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(bytes: &[u8]) -> Vec<u32> {
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    #[test]
    fn splitmix64_matches_reference_vector() {
        // Seed 0 of the reference splitmix64.c (Vigna) starts 0xe220a8397b1dcdaf,
        // 0x6e789e6aa1b965f4, 0x06c45d188009454f: the values widely quoted for it.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(rng.next_u64(), 0x06c4_5d18_8009_454f);
    }

    #[test]
    fn f32_uniform_stays_in_range_and_is_deterministic() {
        let init = Init::F32Uniform {
            min: -2.0,
            max: 3.0,
            seed: 9,
        };
        let a = init.fill(4096);
        assert_eq!(a, init.fill(4096));
        let values: Vec<f32> = words(&a).into_iter().map(f32::from_bits).collect();
        assert!(values.iter().all(|v| (-2.0..=3.0).contains(v)));
        // 1024 draws from a continuous range: duplicates would mean a broken mapping.
        let mut sorted = values.clone();
        sorted.sort_by(f32::total_cmp);
        sorted.dedup();
        assert!(sorted.len() > 1000);
    }

    #[test]
    fn ramp_list_and_constant_are_exact() {
        let ramp = Init::F32Ramp {
            start: 1.5,
            step: 0.25,
        };
        assert_eq!(
            words(&ramp.fill(12)),
            vec![1.5f32.to_bits(), 1.75f32.to_bits(), 2.0f32.to_bits()]
        );
        assert_eq!(
            words(
                &Init::I32Ramp {
                    start: i32::MAX,
                    step: 1
                }
                .fill(8)
            ),
            vec![0x7fff_ffff, 0x8000_0000]
        );
        assert_eq!(words(&Init::U32List(vec![7]).fill(8)), vec![7, 0]);
        assert_eq!(words(&Init::I32Constant(-1).fill(8)), vec![u32::MAX; 2]);
    }

    #[test]
    fn int_uniform_is_inclusive() {
        let init = Init::I32Uniform {
            min: -1,
            max: 1,
            seed: 3,
        };
        let seen: std::collections::BTreeSet<u32> = words(&init.fill(400)).into_iter().collect();
        assert_eq!(
            seen,
            [u32::MAX, 0, 1]
                .into_iter()
                .collect::<std::collections::BTreeSet<_>>()
        );
    }

    #[test]
    fn special_mixes_in_specials() {
        let init = Init::F32Special {
            min: 0.0,
            max: 1.0,
            seed: 5,
        };
        let w = words(&init.fill(4000));
        assert!(w.iter().any(|&b| f32::from_bits(b).is_nan()));
        assert!(w.contains(&0x8000_0000));
        let normal = w
            .iter()
            .filter(|&&b| (0.0..1.0).contains(&f32::from_bits(b)))
            .count();
        assert!(
            normal > 800,
            "most values come from the range, got {normal}"
        );
    }

    #[test]
    fn records_interleave_fields() {
        let init = Init::Records {
            stride: 12,
            fields: vec![
                Field {
                    offset: 0,
                    words: 2,
                    init: Init::U32Ramp { start: 0, step: 1 },
                },
                Field {
                    offset: 8,
                    words: 1,
                    init: Init::F32Constant(2.0),
                },
            ],
        };
        assert_eq!(
            words(&init.fill(24)),
            vec![0, 1, 2.0f32.to_bits(), 2, 3, 2.0f32.to_bits()]
        );
    }

    #[test]
    fn absurd_record_fields_are_errors_not_overflows() {
        let record = |offset: usize, words: usize| Init::Records {
            stride: 16,
            fields: vec![Field {
                offset,
                words,
                init: Init::U32Constant(1),
            }],
        };
        // `words * 4` would overflow: reported as too long, saturated.
        assert_eq!(
            record(0, usize::MAX / 2).validate(64),
            Err(Problem::TooLong {
                needed: usize::MAX,
                available: 16
            })
        );
        assert_eq!(
            record(usize::MAX, 1).validate(64),
            Err(Problem::TooLong {
                needed: usize::MAX,
                available: 16
            })
        );
        // A zero-word field has no values to take (and would be an empty chunk size).
        assert!(matches!(
            record(0, 0).validate(64),
            Err(Problem::OutOfRange { .. })
        ));
        assert_eq!(record(0, 0).fill(32), vec![0; 32]);
        let segment = Init::Segments(vec![Segment {
            offset: usize::MAX,
            bytes: usize::MAX,
            init: Init::Zero,
        }]);
        assert_eq!(
            segment.validate(8),
            Err(Problem::TooLong {
                needed: usize::MAX,
                available: 8
            })
        );
        assert_eq!(segment.fill(8), vec![0; 8]);
    }

    #[test]
    fn segments_and_list_overflow() {
        let init = Init::Segments(vec![Segment {
            offset: 4,
            bytes: 4,
            init: Init::U8List(vec![1, 2, 3, 4]),
        }]);
        assert_eq!(init.fill(12), vec![0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0]);
        assert_eq!(
            Init::F32List(vec![1.0; 3]).validate(8),
            Err(Problem::TooLong {
                needed: 12,
                available: 8
            })
        );
    }
}
