//! Random input buffers rich in the values that break compilers: NaNs (quiet, signalling,
//! negative, with payloads), signed zeros, infinities, denormals, the largest and smallest
//! normals, and integer extremes, for every scalar type a program may load.

use super::{Config, INPUT_BYTES};
use core::fmt;
use quickcheck::{Arbitrary, Gen};

/// Bytes per unit: each unit of the buffer is filled as one kind of scalar (two f32, four f16,
/// two i32, four i16, one i64, or random bytes), so aligned loads of that type read the special
/// values intact, while loads of other types see their bit patterns.
const UNIT_BYTES: usize = 8;

/// f32 bit patterns worth testing.
const F32_SPECIALS: [u32; 26] = [
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x3f80_0000, // 1
    0xbf80_0000, // -1
    0x3f00_0000, // 0.5
    0xc020_0000, // -2.5
    0x4040_0000, // 3
    0x42c8_0000, // 100
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7fc0_0000, // quiet NaN
    0xffc0_0000, // negative quiet NaN
    0x7f80_0001, // signalling NaN
    0x7fc1_2345, // NaN with a payload
    0x0080_0000, // smallest normal
    0x8080_0000, // -smallest normal
    0x0000_0001, // smallest denormal
    0x8000_0001, // -smallest denormal
    0x007f_ffff, // largest denormal
    0x0040_0000, // a denormal
    0x7f7f_ffff, // largest finite
    0xff7f_ffff, // most negative finite
    0x477f_e000, // 65504, the largest f16
    0x477f_f000, // 65520, rounds to f16 infinity
    0x3380_0000, // 2^-24, the smallest f16 denormal
    0x4049_0fdb, // pi
];

/// f16 bit patterns worth testing.
const F16_SPECIALS: [u16; 20] = [
    0x0000, // +0
    0x8000, // -0
    0x3c00, // 1
    0xbc00, // -1
    0x3800, // 0.5
    0xc100, // -2.5
    0x7c00, // +inf
    0xfc00, // -inf
    0x7e00, // quiet NaN
    0xfe00, // negative quiet NaN
    0x7c01, // signalling NaN
    0x0001, // smallest denormal
    0x8001, // -smallest denormal
    0x03ff, // largest denormal
    0x0400, // smallest normal
    0x7bff, // 65504, largest finite
    0xfbff, // -65504
    0x4248, // 3.140625
    0x5640, // 100
    0x1400, // 2^-10
];

/// Integers worth testing (wrapped to the width), besides each width's minimum and maximum.
const INT_SPECIALS: [i64; 16] = [0, 1, -1, 2, -2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 255, 65535];

/// The contents of the input buffer ([`INPUT_BYTES`] bytes; see the module docs' layout).
#[derive(Clone, PartialEq, Eq)]
pub struct InputBuffer {
    bytes: Vec<u8>,
}

impl InputBuffer {
    /// A buffer holding `bytes` (padded with zeros or cut to [`INPUT_BYTES`]).
    pub fn from_bytes(mut bytes: Vec<u8>) -> InputBuffer {
        bytes.resize(INPUT_BYTES as usize, 0);
        InputBuffer { bytes }
    }

    /// All zeros.
    pub fn zeros() -> InputBuffer {
        InputBuffer::from_bytes(Vec::new())
    }

    /// Random contents: every unit of eight bytes is two f32, four f16, two i32, four i16, one
    /// i64 or random bytes, each scalar a special value (see the tables) more often than not.
    /// `config` decides whether i64 units appear.
    pub fn generate(g: &mut Gen, config: &Config) -> InputBuffer {
        let mut bytes = Vec::with_capacity(INPUT_BYTES as usize);
        let kinds = if config.i64 { 6 } else { 5 };
        while bytes.len() < INPUT_BYTES as usize {
            match below(g, kinds) {
                0 => {
                    for _ in 0..2 {
                        bytes.extend(f32_bits(g).to_le_bytes());
                    }
                }
                1 => {
                    for _ in 0..4 {
                        bytes.extend(f16_bits(g).to_le_bytes());
                    }
                }
                2 => {
                    for _ in 0..2 {
                        bytes.extend((int(g, 32) as u32).to_le_bytes());
                    }
                }
                3 => {
                    for _ in 0..4 {
                        bytes.extend((int(g, 16) as u16).to_le_bytes());
                    }
                }
                4 => bytes.extend((0..UNIT_BYTES).map(|_| u8::arbitrary(g))),
                _ => bytes.extend(int(g, 64).to_le_bytes()),
            }
        }
        InputBuffer::from_bytes(bytes)
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Simpler buffers: all zeros, then each non-zero unit zeroed in turn (so the units a
    /// failure needs survive and the rest become zeros).
    pub fn shrink(&self) -> Box<dyn Iterator<Item = InputBuffer>> {
        if self.bytes.iter().all(|&b| b == 0) {
            return Box::new(core::iter::empty());
        }
        let mut out = vec![InputBuffer::zeros()];
        for (i, unit) in self.bytes.chunks(UNIT_BYTES).enumerate() {
            if unit.iter().any(|&b| b != 0) {
                let mut bytes = self.bytes.clone();
                bytes[i * UNIT_BYTES..(i + 1) * UNIT_BYTES].fill(0);
                out.push(InputBuffer { bytes });
            }
        }
        Box::new(out.into_iter())
    }
}

fn below(g: &mut Gen, n: usize) -> usize {
    u32::arbitrary(g) as usize % n
}

fn f32_bits(g: &mut Gen) -> u32 {
    match below(g, 10) {
        0..=4 => F32_SPECIALS[below(g, F32_SPECIALS.len())],
        // Ordinary values of moderate size, where arithmetic stays finite.
        5..=7 => {
            let sign = if bool::arbitrary(g) { -1.0 } else { 1.0 };
            let exp = below(g, 41) as i32 - 20;
            let frac = 1.0 + below(g, 1 << 20) as f32 / (1 << 20) as f32;
            (sign * frac * 2f32.powi(exp)).to_bits()
        }
        // A random denormal.
        8 => u32::arbitrary(g) & 0x807f_ffff,
        _ => u32::arbitrary(g),
    }
}

fn f16_bits(g: &mut Gen) -> u16 {
    match below(g, 10) {
        0..=4 => F16_SPECIALS[below(g, F16_SPECIALS.len())],
        // Ordinary values: exponents near 0, any significand.
        5..=7 => {
            let sign = u16::from(bool::arbitrary(g)) << 15;
            let exp = (below(g, 13) as u16 + 9) << 10;
            sign | exp | (u16::arbitrary(g) & 0x3ff)
        }
        8 => u16::arbitrary(g) & 0x83ff,
        _ => u16::arbitrary(g),
    }
}

/// A `bits`-wide integer (sign-extended into an i64).
fn int(g: &mut Gen, bits: u32) -> i64 {
    let min = i64::MIN >> (64 - bits);
    let v = match below(g, 10) {
        0 => min,
        1 => !min,
        2 => min + 1,
        3..=6 => INT_SPECIALS[below(g, INT_SPECIALS.len())],
        _ => i64::arbitrary(g),
    };
    (v << (64 - bits)) >> (64 - bits)
}

impl Arbitrary for InputBuffer {
    fn arbitrary(g: &mut Gen) -> InputBuffer {
        InputBuffer::generate(g, &Config::default())
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = InputBuffer>> {
        InputBuffer::shrink(self)
    }
}

/// Eight bytes per line: offset, hex, and the unit read as f32 and as i32.
impl fmt::Debug for InputBuffer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "input buffer ({} bytes):", self.bytes.len())?;
        for (i, unit) in self.bytes.chunks(UNIT_BYTES).enumerate() {
            let word = |k: usize| {
                let mut w = [0u8; 4];
                w.copy_from_slice(&unit[4 * k..4 * k + 4]);
                u32::from_le_bytes(w)
            };
            let (a, b) = (word(0), word(1));
            writeln!(
                f,
                "  {:3}: {a:08x} {b:08x}  f32 {:e} {:e}  i32 {} {}",
                i * UNIT_BYTES,
                f32::from_bits(a),
                f32::from_bits(b),
                a as i32,
                b as i32
            )?;
        }
        Ok(())
    }
}
