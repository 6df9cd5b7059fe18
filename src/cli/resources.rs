//! Turning `agxc run`'s resource arguments into the resources a dispatch binds.
//!
//! A buffer argument binds as a storage or a uniform buffer according to how the shader uses
//! that binding (loads from `storage(s, b)` or `uniform(s, b)` in its IR), so the user never has
//! to say which.
//!
//! Varyings file layout: for locations 0, 1, 2, ... in order, twelve little-endian f32 each:
//! `base[4], ddx[4], ddy[4]`, giving component `c` at the centre of pixel `(x, y)` the value
//! `base[c] + ddx[c] * (x + 0.5) + ddy[c] * (y + 0.5)` (the affine model the interpreter and the
//! simulator share); flat inputs read `base`, converted to the input's type (a flat `int` given
//! 5.0 reads 5).
//!
//! Extended layout, for flat inputs that need exact bits (integers beyond 2^24, any pattern):
//! the file starts with the eight ASCII bytes `AGXCVAR2`, and each location's record is
//! thirteen little-endian 32-bit words: a mask whose bit `c` marks component `c`'s `base` as a
//! raw word, then `base[4], ddx[4], ddy[4]`. A flat input reads a raw word bit for bit (i32
//! and f32 as they are, i16 its low half, f16 the word as an f32 rounded to f16); interpolated
//! inputs read a raw `base` as the f32 with those bits. Files in the first layout keep their
//! meaning (one whose first two floats are exactly the magic's bytes, 216.27834 and
//! 1.2241e-8, would have to be rewritten in the extended layout).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use agxc::egraph::interp::{FragmentGrid, Resources, Texture, Varying};
use agxc::egraph::ir::{AddressSpace, Binding, EffectOp, Function, Op, ValueDef};

use super::images::ImageSpec;
use super::spec::BindingSpec;
use super::RunArgs;

/// Bytes per location in a varyings file.
pub const VARYING_RECORD_BYTES: usize = 48;

/// The first bytes of a varyings file in the extended layout (module docs).
pub const VARYINGS_MAGIC: &[u8; 8] = b"AGXCVAR2";

/// Bytes per location in the extended layout: the raw-component mask, then a
/// [`VARYING_RECORD_BYTES`] record.
pub const RAW_VARYING_RECORD_BYTES: usize = 4 + VARYING_RECORD_BYTES;

/// A resource problem, named for the argument that caused it.
#[derive(Debug, thiserror::Error)]
pub enum ResourceError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A value does not fit what the shader or the argument needs.
    #[error("{0}")]
    Invalid(String),
}

fn read(path: &Path) -> Result<Vec<u8>, ResourceError> {
    std::fs::read(path).map_err(|source| ResourceError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes `bytes` to `path`.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), ResourceError> {
    std::fs::write(path, bytes).map_err(|source| ResourceError::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn to_binding(b: BindingSpec) -> Binding {
    Binding::new(b.set, b.binding)
}

/// The uniform-buffer bindings a function loads from.
fn uniform_bindings(func: &Function) -> BTreeSet<Binding> {
    let mut out = BTreeSet::new();
    func.for_each_inst(|_, inst| {
        if let Op::Effect(EffectOp::Load(access)) = func.inst(inst).op {
            if let AddressSpace::Uniform(b) = access.space {
                out.insert(b);
            }
        }
    });
    out
}

fn bind_buffer(res: &mut Resources, uniforms: &BTreeSet<Binding>, b: Binding, data: Vec<u8>) {
    if uniforms.contains(&b) {
        res.bind_uniform(b, data);
    } else {
        res.bind_storage(b, data);
    }
}

/// The texture of an `--texture` or `--storage-image` argument: its file's texels, or zeros.
fn image(spec: &ImageSpec) -> Result<Texture, ResourceError> {
    let size = spec.byte_size();
    let name = |spec: &ImageSpec| {
        spec.file
            .as_ref()
            .map_or_else(|| "(zero-filled)".to_string(), |f| f.display().to_string())
    };
    // Checked before allocating, so that a mistyped extent cannot ask for terabytes.
    if size > 1 << 30 {
        return Err(ResourceError::Invalid(format!(
            "{}: the image needs {size} bytes, over 1 GiB",
            name(spec)
        )));
    }
    let data = match &spec.file {
        Some(file) => read(file)?,
        None => vec![0; size as usize],
    };
    if data.len() as u64 != size {
        let d = &spec.desc;
        return Err(ResourceError::Invalid(format!(
            "{}: a {}x{}x{} {} image with {} slices and {} levels needs {size} bytes, the file \
             has {}",
            name(spec),
            d.width,
            d.height,
            d.depth,
            d.format.name(),
            d.slices(),
            d.levels,
            data.len()
        )));
    }
    Texture::new(spec.desc, data)
        .map_err(|e| ResourceError::Invalid(format!("{}: {e}", name(spec))))
}

/// The push-constant bytes a run of `func` must supply: its declared block
/// ([`Function::push_constant_bytes`]), or for IR that declares none, the end of the furthest
/// push-constant read at a constant offset.
pub fn push_bytes_needed(func: &Function) -> u32 {
    let mut end = func.push_constant_bytes;
    func.for_each_inst(|_, inst| {
        let data = func.inst(inst);
        let Op::Effect(EffectOp::Load(access)) = data.op else {
            return;
        };
        if access.space != AddressSpace::PushConstant {
            return;
        }
        let offset = data.args.first().and_then(|&a| match func.values[a].def {
            ValueDef::Result(i, 0) => match func.insts[i].op {
                Op::Const(c) if c.ty().is_int() => u32::try_from(c.as_i64()).ok(),
                _ => None,
            },
            _ => None,
        });
        let Some(offset) = offset else {
            return;
        };
        let bytes: u32 = data
            .results
            .iter()
            .map(|&r| func.value_type(r).bytes())
            .sum();
        end = end.max(offset.saturating_add(access.offset).saturating_add(bytes));
    });
    end
}

/// Builds the resources for a run of `func` from the command line.
pub fn build(args: &RunArgs, func: &Function) -> Result<Resources, ResourceError> {
    let uniforms = uniform_bindings(func);
    let mut res = Resources::new();
    for &(b, ref file) in &args.buffers {
        bind_buffer(&mut res, &uniforms, to_binding(b), read(file)?);
    }
    for &(b, size) in &args.buffer_sizes {
        let size = usize::try_from(size)
            .ok()
            .filter(|&s| s <= 1 << 30)
            .ok_or_else(|| ResourceError::Invalid(format!("buffer size {size} is over 1 GiB")))?;
        bind_buffer(&mut res, &uniforms, to_binding(b), vec![0; size]);
    }
    // TGSI `CONST[n]` is the uniform buffer at (0, n) (the TGSI front end's binding model).
    for (n, file) in &args.consts {
        res.bind_uniform(Binding::new(0, *n), read(file)?);
    }
    let needed = push_bytes_needed(func);
    match &args.push {
        Some(push) => {
            let data = read(push)?;
            if data.len() < needed as usize {
                return Err(ResourceError::Invalid(format!(
                    "--push {}: {} bytes, shorter than the shader's {needed}-byte push-constant \
                     block",
                    push.display(),
                    data.len()
                )));
            }
            res.set_push_constants(data);
        }
        None if needed > 0 => {
            return Err(ResourceError::Invalid(format!(
            "the shader has a {needed}-byte push-constant block: give its bytes with --push FILE"
        )))
        }
        None => {}
    }
    for spec in args.textures.iter().chain(&args.storage_images) {
        let b = to_binding(spec.binding);
        if res.texture(b).is_some() {
            return Err(ResourceError::Invalid(format!(
                "two images at binding {}.{}",
                b.set, b.binding
            )));
        }
        res.bind_texture(b, image(spec)?);
        if let Some(sampler) = spec.sampler {
            res.bind_sampler(b, sampler);
        }
    }
    for &(b, sampler) in &args.samplers {
        res.bind_sampler(to_binding(b), sampler);
    }
    Ok(res)
}

/// Reads a varyings file (either layout in the module docs).
pub fn varyings(path: &Path) -> Result<BTreeMap<u32, Varying>, ResourceError> {
    parse_varyings(&read(path)?)
        .map_err(|what| ResourceError::Invalid(format!("{}: {what}", path.display())))
}

/// Parses the bytes of a varyings file; the error says what is wrong with them.
fn parse_varyings(bytes: &[u8]) -> Result<BTreeMap<u32, Varying>, String> {
    let (records, record_bytes, extended) = match bytes.strip_prefix(VARYINGS_MAGIC.as_slice()) {
        Some(rest) => (rest, RAW_VARYING_RECORD_BYTES, true),
        None => (bytes, VARYING_RECORD_BYTES, false),
    };
    if records.len() % record_bytes != 0 {
        let layout = if extended { "extended " } else { "" };
        return Err(format!(
            "{} bytes of records is not a whole number of {record_bytes}-byte {layout}varying \
             records",
            records.len()
        ));
    }
    let words: Vec<u32> = records
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut out = BTreeMap::new();
    for (loc, r) in words.chunks_exact(record_bytes / 4).enumerate() {
        let (mask, r) = if extended { (r[0], &r[1..]) } else { (0, r) };
        if mask > 0xf {
            return Err(format!(
                "location {loc}: raw-component mask 0x{mask:x} names components beyond 4"
            ));
        }
        let four = |i: usize| [r[i], r[i + 1], r[i + 2], r[i + 3]].map(f32::from_bits);
        out.insert(
            loc as u32,
            Varying {
                base: four(0),
                ddx: four(4),
                ddy: four(8),
                raw: std::array::from_fn(|c| mask >> c & 1 == 1),
            },
        );
    }
    Ok(out)
}

/// The fragment grid for a run.
pub fn grid(args: &RunArgs, size: [u32; 2]) -> Result<FragmentGrid, ResourceError> {
    let mut grid = FragmentGrid::new(size[0], size[1]);
    if let Some(clear) = args.clear {
        grid.clear = clear;
    }
    if let Some(path) = &args.varyings {
        grid.varyings = varyings(path)?;
    }
    Ok(grid)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn le(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn the_first_layout_keeps_its_meaning() {
        let mut record = vec![0u32; 12];
        record[0] = 5.0f32.to_bits();
        record[4] = 0.25f32.to_bits();
        record[9] = 0.125f32.to_bits();
        let v = parse_varyings(&le(&record)).expect("one record");
        assert_eq!(v.len(), 1);
        assert_eq!(v[&0].base, [5.0, 0.0, 0.0, 0.0]);
        assert_eq!(v[&0].ddx, [0.25, 0.0, 0.0, 0.0]);
        assert_eq!(v[&0].ddy, [0.0, 0.125, 0.0, 0.0]);
        assert_eq!(v[&0].raw, [false; 4]);
        assert!(parse_varyings(&le(&[0; 13])).is_err());
    }

    #[test]
    fn the_extended_layout_marks_raw_words() {
        // Location 0: numeric; location 1: x and z raw (0xDEADBEEF, a signalling NaN pattern).
        let mut bytes = VARYINGS_MAGIC.to_vec();
        let mut words = vec![0u32; 26];
        words[1] = 1.5f32.to_bits();
        words[13] = 0b101;
        words[14] = 0xDEAD_BEEF;
        words[16] = 0x7f80_0001;
        bytes.extend(le(&words));
        let v = parse_varyings(&bytes).expect("two records");
        assert_eq!(v[&0].base[0], 1.5);
        assert_eq!(v[&0].raw, [false; 4]);
        assert_eq!(v[&1].raw, [true, false, true, false]);
        assert_eq!(v[&1].base[0].to_bits(), 0xDEAD_BEEF);
        assert_eq!(v[&1].base[2].to_bits(), 0x7f80_0001);
        // A record cut short, and a mask naming a fifth component.
        assert!(parse_varyings(&bytes[..bytes.len() - 4]).is_err());
        let mut bad = bytes.clone();
        bad[8] = 0x10;
        let e = parse_varyings(&bad).expect_err("component 4 does not exist");
        assert!(e.contains("mask 0x10"), "{e}");
    }
}
