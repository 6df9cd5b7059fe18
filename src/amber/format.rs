//! Buffer element types and their memory layout: AmberScript's `DATA_TYPE` names (`uint32`,
//! `vec3<float>`, `mat2x3<float>`) and Vulkan `FORMAT` names (`R32G32B32A32_SFLOAT`,
//! `B8G8R8A8_UNORM`), laid out as `STD430` (the default) or `STD140`.
//!
//! Layout (the GLSL block rules of the Vulkan spec, "Offset and Stride Assignment", as
//! google/amber applies them to a buffer seen as an array of its elements): a vector of three
//! takes the room of four; `STD140` rounds every element (and every matrix column) up to 16
//! bytes; `FORMAT` buffers are tightly packed, as texel formats are.

/// A component's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comp {
    /// Signed integer of the given bytes.
    Int(u8),
    /// Unsigned integer of the given bytes.
    Uint(u8),
    /// `float16`
    F16,
    /// `float`
    F32,
    /// `double`
    F64,
    /// An 8-bit normalized channel, read and written as 0..=255.
    Unorm8,
}

impl Comp {
    /// Bytes per component.
    pub fn bytes(self) -> u64 {
        match self {
            Comp::Int(b) | Comp::Uint(b) => u64::from(b),
            Comp::F16 => 2,
            Comp::F32 => 4,
            Comp::F64 => 8,
            Comp::Unorm8 => 1,
        }
    }

    /// Whether values are floating point.
    pub fn is_float(self) -> bool {
        matches!(self, Comp::F16 | Comp::F32 | Comp::F64)
    }

    fn scalar(name: &str) -> Option<Comp> {
        Some(match name {
            "int8" => Comp::Int(1),
            "int16" => Comp::Int(2),
            "int32" => Comp::Int(4),
            "int64" => Comp::Int(8),
            "uint8" => Comp::Uint(1),
            "uint16" => Comp::Uint(2),
            "uint32" => Comp::Uint(4),
            "uint64" => Comp::Uint(8),
            "float16" => Comp::F16,
            "float" => Comp::F32,
            "double" => Comp::F64,
            _ => return None,
        })
    }

    /// Encodes a value written in a script; the error says why it does not fit.
    pub fn encode(self, text: &str, out: &mut Vec<u8>) -> Result<(), String> {
        let bad = || format!("`{text}` is not a valid {self:?} value");
        if self.is_float() {
            let v: f64 = text.parse().map_err(|_| bad())?;
            match self {
                Comp::F16 => out.extend(half::f16::from_f64(v).to_le_bytes()),
                Comp::F32 => out.extend((v as f32).to_le_bytes()),
                _ => out.extend(v.to_le_bytes()),
            }
            return Ok(());
        }
        let v: i128 = match text.strip_prefix("0x") {
            Some(hex) => i128::from_str_radix(hex, 16).map_err(|_| bad())?,
            None => text.parse().map_err(|_| bad())?,
        };
        let bytes = self.bytes() as u32;
        let (lo, hi) = match self {
            Comp::Int(_) => (-(1i128 << (bytes * 8 - 1)), (1i128 << (bytes * 8 - 1)) - 1),
            _ => (0, (1i128 << (bytes * 8)) - 1),
        };
        if v < lo || v > hi {
            return Err(format!("{text} is out of range for {self:?}"));
        }
        out.extend(&v.to_le_bytes()[..bytes as usize]);
        Ok(())
    }

    /// Decodes one component (`bytes` holds at least [`Comp::bytes`]).
    pub fn decode(self, bytes: &[u8]) -> Value {
        let mut word = [0u8; 8];
        word[..self.bytes() as usize].copy_from_slice(&bytes[..self.bytes() as usize]);
        let raw = u64::from_le_bytes(word);
        match self {
            Comp::Int(b) => {
                let shift = 64 - 8 * u32::from(b);
                Value::Int(i128::from((raw << shift) as i64 >> shift))
            }
            Comp::Uint(_) | Comp::Unorm8 => Value::Int(i128::from(raw)),
            Comp::F16 => Value::Float(half::f16::from_bits(raw as u16).to_f64()),
            Comp::F32 => Value::Float(f64::from(f32::from_bits(raw as u32))),
            Comp::F64 => Value::Float(f64::from_bits(raw)),
        }
    }

    /// Parses an expected value as a [`Value`] of this type, rounded to it (a float written
    /// `3.7` compares with the `float` nearest 3.7).
    pub fn expected(self, text: &str) -> Result<Value, String> {
        let mut bytes = Vec::new();
        self.encode(text, &mut bytes)?;
        Ok(self.decode(&bytes))
    }
}

/// A decoded component.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// Any integer type.
    Int(i128),
    /// Any float type, widened.
    Float(f64),
}

impl Value {
    /// As a double.
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
        }
    }
}

/// A buffer's layout rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// `STD430` (the default).
    Std430,
    /// `STD140`.
    Std140,
    /// A `FORMAT` buffer: tightly packed.
    Packed,
}

impl Layout {
    /// The layout after a `STD140`/`STD430` keyword: a packed format stays packed.
    pub fn with(self, l: Layout) -> Layout {
        if self == Layout::Packed {
            self
        } else {
            l
        }
    }
}

/// A buffer's element type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElemType {
    /// Component type.
    pub comp: Comp,
    /// Components per vector (matrix rows).
    pub rows: u32,
    /// Matrix columns (1 for scalars and vectors).
    pub cols: u32,
    /// Layout rule.
    pub layout: Layout,
    /// For formats: the channel letters in memory order (`"BGRA"`), for image probes.
    pub channels: Option<String>,
}

impl ElemType {
    /// Parses a `DATA_TYPE` name.
    pub fn data_type(name: &str) -> Result<ElemType, String> {
        let bad = || format!("unsupported data type `{name}`");
        let (shape, inner) = match name.split_once('<') {
            Some((shape, rest)) => (shape, rest.strip_suffix('>').ok_or_else(bad)?),
            None => ("", name),
        };
        let comp = Comp::scalar(inner).ok_or_else(bad)?;
        let (rows, cols) = if shape.is_empty() {
            (1, 1)
        } else if let Some(n) = shape.strip_prefix("vec") {
            (n.parse().map_err(|_| bad())?, 1)
        } else if let Some(cr) = shape.strip_prefix("mat") {
            let (c, r) = cr.split_once('x').ok_or_else(bad)?;
            (r.parse().map_err(|_| bad())?, c.parse().map_err(|_| bad())?)
        } else {
            return Err(bad());
        };
        if !(1..=4).contains(&rows) || !(1..=4).contains(&cols) {
            return Err(bad());
        }
        Ok(ElemType {
            comp,
            rows,
            cols,
            layout: Layout::Std430,
            channels: None,
        })
    }

    /// Parses a Vulkan format name with channels of one type (`R32G32_SFLOAT`,
    /// `B8G8R8A8_UNORM`).
    pub fn format(name: &str) -> Result<ElemType, String> {
        let bad = || format!("unsupported format `{name}`");
        let (chans, kind) = name.split_once('_').ok_or_else(bad)?;
        let mut letters = String::new();
        let mut bits = None;
        let mut rest = chans;
        while let Some(c) = rest.chars().next() {
            if !"RGBA".contains(c) {
                return Err(bad());
            }
            let digits: String = rest[1..].chars().take_while(char::is_ascii_digit).collect();
            let b: u32 = digits.parse().map_err(|_| bad())?;
            if bits.is_some_and(|x| x != b) {
                return Err(bad());
            }
            bits = Some(b);
            letters.push(c);
            rest = &rest[1 + digits.len()..];
        }
        let comp = match (bits.ok_or_else(bad)?, kind) {
            (8, "UNORM") => Comp::Unorm8,
            (b @ (8 | 16 | 32 | 64), "UINT") => Comp::Uint((b / 8) as u8),
            (b @ (8 | 16 | 32 | 64), "SINT") => Comp::Int((b / 8) as u8),
            (16, "SFLOAT") => Comp::F16,
            (32, "SFLOAT") => Comp::F32,
            (64, "SFLOAT") => Comp::F64,
            _ => return Err(bad()),
        };
        Ok(ElemType {
            comp,
            rows: letters.len() as u32,
            cols: 1,
            layout: Layout::Packed,
            channels: Some(letters),
        })
    }

    /// Components per element.
    pub fn comps(&self) -> u64 {
        u64::from(self.rows * self.cols)
    }

    /// Bytes from one matrix column (or vector) to the next.
    fn column_stride(&self) -> u64 {
        let s = self.comp.bytes();
        match self.layout {
            Layout::Packed => s * u64::from(self.rows),
            _ => {
                let rows = if self.rows == 3 {
                    4
                } else {
                    u64::from(self.rows)
                };
                let natural = s * rows;
                if self.layout == Layout::Std140 {
                    natural.next_multiple_of(16)
                } else {
                    natural
                }
            }
        }
    }

    /// Bytes from one element to the next.
    pub fn stride(&self) -> u64 {
        let s = self.column_stride() * u64::from(self.cols);
        if self.layout == Layout::Std140 {
            s.next_multiple_of(16)
        } else {
            s
        }
    }

    /// The byte offsets of the components of element `i`, in value order (column by column).
    pub fn offsets(&self, i: u64) -> impl Iterator<Item = u64> + '_ {
        let base = i * self.stride();
        (0..u64::from(self.cols)).flat_map(move |c| {
            (0..u64::from(self.rows))
                .map(move |r| base + c * self.column_stride() + r * self.comp.bytes())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_follow_the_block_rules() {
        let v3 = ElemType::data_type("vec3<float>").unwrap();
        assert_eq!(v3.stride(), 16);
        let mut f = ElemType::data_type("float").unwrap();
        assert_eq!(f.stride(), 4);
        f.layout = Layout::Std140;
        assert_eq!(f.stride(), 16);
        let m = ElemType::data_type("mat2x3<float>").unwrap();
        assert_eq!((m.rows, m.cols, m.stride()), (3, 2, 32));
        assert_eq!(m.offsets(1).collect::<Vec<_>>(), [32, 36, 40, 48, 52, 56]);
        let bgra = ElemType::format("B8G8R8A8_UNORM").unwrap();
        assert_eq!((bgra.stride(), bgra.channels.as_deref()), (4, Some("BGRA")));
        assert!(ElemType::format("R5G6B5_UNORM").is_err());
    }

    #[test]
    fn values_round_to_their_type() {
        assert_eq!(
            Comp::F32.expected("3.7"),
            Ok(Value::Float(f64::from(3.7f32)))
        );
        assert_eq!(Comp::Int(1).expected("-1"), Ok(Value::Int(-1)));
        assert!(Comp::Uint(1).expected("256").is_err());
        assert_eq!(Comp::Uint(4).expected("0xff"), Ok(Value::Int(255)));
    }
}
