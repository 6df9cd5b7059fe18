//! Parsing of `agxc run`'s image arguments: `--texture` (a sampled texture and its sampler at
//! one binding), `--storage-image` (a texture without a sampler, which image stores write and
//! `--out` reads back) and `--sampler` (a separate sampler object).
//!
//! ```text
//! --texture       [SET.]BINDING=FILE,SHAPE,FORMAT[,FILTER[,WRAP]][,KEY=VALUE...]
//! --storage-image [SET.]BINDING=[FILE],SHAPE,FORMAT[,layers=N][,levels=N]
//! --sampler       [SET.]BINDING=FILTER[,WRAP][,KEY=VALUE...]
//! ```
//!
//! - SHAPE: `WxH` or `2d:WxH`, `1d:W`, `3d:WxHxD`, `cube:S` (six square faces).
//! - FORMAT: every format the simulator samples and stores: `rgba8` (unorm), `rgba16f`,
//!   `rgba32f`, `r32f`, `rgba32ui`, `rgba32i`, `r32ui`, `r32i`.
//! - FILTER: `nearest` or `linear` (min and mag); WRAP: `repeat`, `clamp`, `mirror`, `border`
//!   (transparent black), on every axis. Defaults: nearest, repeat.
//! - Shape keys: `layers=N` (an array texture of N layers, cube arrays N cubes; not for 3D),
//!   `levels=N` or `levels=full` (mip levels, default 1).
//! - Sampler keys: `mip=none|nearest|linear` (default `nearest` when the texture has more than
//!   one level, else `none`), `lod-bias=F`, `min-lod=F`, `max-lod=F`,
//!   `compare=never|less|equal|lequal|greater|notequal|gequal|always` (depth comparison).
//!
//! The FILE holds the raw texels in the interpreter's and the simulator's shared layout: level
//! 0 first, then 1, 2, ...; in each level the slices (array layers, cube faces +X, -X, +Y, -Y,
//! +Z, -Z per layer), in each slice the planes (3D), rows top to bottom, texels left to right,
//! tightly packed, little-endian. Level `l` measures `max(1, extent >> l)` per axis. An empty
//! FILE (storage images only) is a zero-filled image.

use std::path::PathBuf;

use agxc::egraph::interp::{
    CompareOp, Filter, MipFilter, Sampler, TextureDesc, TextureFormat, Wrap,
};
use agxc::egraph::ir::TexDim;

use super::spec::{binding, BindingSpec, SpecError};

/// One `--texture` or `--storage-image` value.
#[derive(Clone, Debug, PartialEq)]
pub struct ImageSpec {
    /// Where it is bound.
    pub binding: BindingSpec,
    /// The raw texel file (`None`: zero-filled).
    pub file: Option<PathBuf>,
    /// Shape and format.
    pub desc: TextureDesc,
    /// The sampler bound with it (`--texture` only).
    pub sampler: Option<Sampler>,
}

impl ImageSpec {
    /// The bytes the texel file must have.
    pub fn byte_size(&self) -> u64 {
        byte_size(&self.desc)
    }
}

/// Bytes of every level and slice of a texture of this shape (saturating).
pub fn byte_size(d: &TextureDesc) -> u64 {
    let per_texel = d.format.texel_bytes() as u64;
    (0..d.levels.min(32))
        .map(|l| {
            let [w, h, z] = d.level_extent(l);
            u64::from(w)
                .saturating_mul(u64::from(h))
                .saturating_mul(u64::from(z))
                .saturating_mul(u64::from(d.slices()))
                .saturating_mul(per_texel)
        })
        .fold(0u64, u64::saturating_add)
}

fn err(value: &str, reason: impl Into<String>) -> SpecError {
    SpecError {
        value: value.to_string(),
        reason: reason.into(),
    }
}

const FORMATS: [TextureFormat; 8] = [
    TextureFormat::Rgba8Unorm,
    TextureFormat::Rgba16Float,
    TextureFormat::Rgba32Float,
    TextureFormat::R32Float,
    TextureFormat::Rgba32Uint,
    TextureFormat::Rgba32Sint,
    TextureFormat::R32Uint,
    TextureFormat::R32Sint,
];

fn format(text: &str, whole: &str) -> Result<TextureFormat, SpecError> {
    FORMATS
        .into_iter()
        .find(|f| f.name() == text)
        .ok_or_else(|| {
            let names: Vec<&str> = FORMATS.iter().map(|f| f.name()).collect();
            err(
                whole,
                format!("unknown format `{text}` ({})", names.join(", ")),
            )
        })
}

fn number(text: &str, whole: &str, what: &str) -> Result<u32, SpecError> {
    match text.trim().parse::<u32>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(err(
            whole,
            format!("{what} `{text}` is not a positive integer"),
        )),
    }
}

fn float(text: &str, whole: &str, what: &str) -> Result<f32, SpecError> {
    text.trim()
        .parse::<f32>()
        .map_err(|_| err(whole, format!("{what} `{text}` is not a number")))
}

/// `WxH`, `2d:WxH`, `1d:W`, `3d:WxHxD` or `cube:S`.
fn shape(text: &str, whole: &str, format: TextureFormat) -> Result<TextureDesc, SpecError> {
    let (kind, dims) = text.split_once(':').unwrap_or(("2d", text));
    let dims: Vec<u32> = dims
        .split(['x', 'X'])
        .map(|d| number(d, whole, "extent"))
        .collect::<Result<_, _>>()?;
    Ok(match (kind, &dims[..]) {
        ("1d", &[w]) => TextureDesc::d1(format, w),
        ("2d", &[w, h]) => TextureDesc::d2(format, w, h),
        ("3d", &[w, h, d]) => TextureDesc::d3(format, w, h, d),
        ("cube", &[s]) => TextureDesc::cube(format, s),
        _ => {
            return Err(err(
                whole,
                format!("shape `{text}` is not WxH, 1d:W, 2d:WxH, 3d:WxHxD or cube:S"),
            ))
        }
    })
}

fn filter(text: &str, whole: &str) -> Result<Filter, SpecError> {
    match text {
        "nearest" => Ok(Filter::Nearest),
        "linear" => Ok(Filter::Linear),
        other => Err(err(
            whole,
            format!("unknown filter `{other}` (nearest, linear)"),
        )),
    }
}

fn wrap(text: &str, whole: &str) -> Result<Wrap, SpecError> {
    match text {
        "repeat" => Ok(Wrap::Repeat),
        "clamp" => Ok(Wrap::ClampToEdge),
        "mirror" => Ok(Wrap::MirroredRepeat),
        "border" => Ok(Wrap::ClampToBorder),
        other => Err(err(
            whole,
            format!("unknown wrap mode `{other}` (repeat, clamp, mirror, border)"),
        )),
    }
}

fn compare(text: &str, whole: &str) -> Result<CompareOp, SpecError> {
    Ok(match text {
        "never" => CompareOp::Never,
        "less" => CompareOp::Less,
        "equal" => CompareOp::Equal,
        "lequal" => CompareOp::LessEqual,
        "greater" => CompareOp::Greater,
        "notequal" => CompareOp::NotEqual,
        "gequal" => CompareOp::GreaterEqual,
        "always" => CompareOp::Always,
        other => {
            return Err(err(
                whole,
                format!(
                    "unknown comparison `{other}` (never, less, equal, lequal, greater, \
                     notequal, gequal, always)"
                ),
            ))
        }
    })
}

/// Sampler fields: positional FILTER and WRAP, then `KEY=VALUE`s. `levels` decides the default
/// mip mode.
fn sampler(fields: &[&str], whole: &str, levels: u32) -> Result<Sampler, SpecError> {
    let mut s = Sampler::default();
    let mut mip = None;
    let mut positional = 0;
    for field in fields {
        let field = field.trim();
        match field.split_once('=') {
            None => {
                match positional {
                    0 => {
                        let f = filter(field, whole)?;
                        s.min_filter = f;
                        s.mag_filter = f;
                    }
                    1 => s.wrap = [wrap(field, whole)?; 3],
                    _ => return Err(err(whole, format!("unexpected field `{field}`"))),
                }
                positional += 1;
            }
            Some((key, value)) => match key {
                "mip" => {
                    mip = Some(match value {
                        "none" => MipFilter::None,
                        "nearest" => MipFilter::Nearest,
                        "linear" => MipFilter::Linear,
                        other => {
                            return Err(err(
                                whole,
                                format!("unknown mip mode `{other}` (none, nearest, linear)"),
                            ))
                        }
                    })
                }
                "lod-bias" => s.lod_bias = float(value, whole, "lod-bias")?,
                "min-lod" => s.min_lod = float(value, whole, "min-lod")?,
                "max-lod" => s.max_lod = float(value, whole, "max-lod")?,
                "compare" => s.compare = Some(compare(value, whole)?),
                other => {
                    return Err(err(
                        whole,
                        format!(
                            "unknown key `{other}` (layers, levels, mip, lod-bias, min-lod, \
                             max-lod, compare)"
                        ),
                    ))
                }
            },
        }
    }
    s.mip_filter = mip.unwrap_or(if levels > 1 {
        MipFilter::Nearest
    } else {
        MipFilter::None
    });
    Ok(s)
}

/// Parses `--texture` (`sampled`) or `--storage-image` values.
fn image(text: &str, sampled: bool) -> Result<ImageSpec, SpecError> {
    let usage = if sampled {
        "expected [SET.]BINDING=FILE,SHAPE,FORMAT[,FILTER[,WRAP]][,KEY=VALUE...]"
    } else {
        "expected [SET.]BINDING=[FILE],SHAPE,FORMAT[,layers=N][,levels=N]"
    };
    let (b, rest) = text.split_once('=').ok_or_else(|| err(text, usage))?;
    let fields: Vec<&str> = rest.split(',').collect();
    let [file, dims, fmt, more @ ..] = &fields[..] else {
        return Err(err(text, usage));
    };
    if sampled && file.is_empty() {
        return Err(err(text, "missing file name"));
    }
    let mut desc = shape(dims.trim(), text, format(fmt.trim(), text)?)?;
    // Shape keys first: the sampler's default mip mode depends on the level count.
    let mut sampler_fields = Vec::new();
    for field in more {
        match field.trim().split_once('=') {
            Some(("layers", n)) => {
                if desc.target.dim == TexDim::D3 {
                    return Err(err(text, "a 3D texture has no layers"));
                }
                desc = desc.with_layers(number(n, text, "layers")?);
            }
            Some(("levels", "full")) => desc = desc.with_full_mip_chain(),
            Some(("levels", n)) => desc = desc.with_levels(number(n, text, "levels")?),
            _ if sampled => sampler_fields.push(*field),
            _ => {
                return Err(err(
                    text,
                    format!(
                        "unexpected field `{field}` (a storage image takes layers=N, levels=N)"
                    ),
                ))
            }
        }
    }
    let sampler = if sampled {
        Some(sampler(&sampler_fields, text, desc.levels)?)
    } else {
        None
    };
    Ok(ImageSpec {
        binding: binding(b)?,
        file: (!file.is_empty()).then(|| PathBuf::from(file)),
        desc,
        sampler,
    })
}

/// Parses a `--texture` value.
pub fn texture(text: &str) -> Result<ImageSpec, SpecError> {
    image(text, true)
}

/// Parses a `--storage-image` value.
pub fn storage_image(text: &str) -> Result<ImageSpec, SpecError> {
    image(text, false)
}

/// Parses a `--sampler` value: `[SET.]BINDING=FILTER[,WRAP][,KEY=VALUE...]` (no level count is
/// known, so `mip` defaults to `nearest`).
pub fn separate_sampler(text: &str) -> Result<(BindingSpec, Sampler), SpecError> {
    let (b, rest) = text
        .split_once('=')
        .ok_or_else(|| err(text, "expected [SET.]BINDING=FILTER[,WRAP][,KEY=VALUE...]"))?;
    let fields: Vec<&str> = rest.split(',').collect();
    Ok((binding(b)?, sampler(&fields, text, 2)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_five_field_form_keeps_its_meaning() {
        let t = texture("0.1=tex.bin,8x4,rgba8,linear,mirror").unwrap();
        assert_eq!(t.binding, BindingSpec { set: 0, binding: 1 });
        assert_eq!(t.desc, TextureDesc::d2(TextureFormat::Rgba8Unorm, 8, 4));
        let s = t.sampler.unwrap();
        assert_eq!(
            (s.min_filter, s.mag_filter),
            (Filter::Linear, Filter::Linear)
        );
        assert_eq!(s.wrap, [Wrap::MirroredRepeat; 3]);
        assert_eq!(s.mip_filter, MipFilter::None);
        assert_eq!(t.byte_size(), 8 * 4 * 4);
        assert!(texture("1=t.bin,8x4,rgb8,linear,repeat").is_err());
        assert!(texture("1=t.bin,8x4,rgba8,cubic,repeat").is_err());
        assert!(texture("t.bin,8x4,rgba8,linear,repeat").is_err());
        assert!(texture("1=,8x4,rgba8").is_err());
    }

    #[test]
    fn shapes_layers_and_levels() {
        let cube = texture("2=c.bin,cube:4,rgba16f,linear,clamp,levels=full,layers=2").unwrap();
        assert_eq!(
            cube.desc,
            TextureDesc::cube(TextureFormat::Rgba16Float, 4)
                .with_layers(2)
                .with_full_mip_chain()
        );
        // Levels 4x4, 2x2, 1x1; 12 faces; 8 bytes a texel.
        assert_eq!(cube.byte_size(), (16 + 4 + 1) * 12 * 8);
        assert_eq!(cube.sampler.unwrap().mip_filter, MipFilter::Nearest);
        let d3 = texture("0=v.bin,3d:4x2x8,r32f,nearest,repeat,levels=2,mip=linear").unwrap();
        // Level 0 4x2x8, level 1 2x1x4; four bytes a texel.
        assert_eq!(d3.byte_size(), (64 + 8) * 4);
        assert_eq!(d3.sampler.unwrap().mip_filter, MipFilter::Linear);
        assert!(texture("0=v.bin,3d:4x2x8,r32f,layers=2").is_err());
        let d1 = texture("0=l.bin,1d:16,rgba32ui,layers=3").unwrap();
        assert!(d1.desc.target.arrayed);
        assert_eq!(d1.byte_size(), 16 * 3 * 16);
        assert!(texture("0=l.bin,1d:16x2,rgba32ui").is_err());
        assert!(texture("0=l.bin,cube:0,rgba8").is_err());
        let s = texture("0=s.bin,2d:4x4,r32f,linear,clamp,compare=lequal,lod-bias=0.5,max-lod=2")
            .unwrap()
            .sampler
            .unwrap();
        assert_eq!(s.compare, Some(CompareOp::LessEqual));
        assert_eq!((s.lod_bias, s.max_lod), (0.5, 2.0));
        assert!(texture("0=s.bin,4x4,r32f,nearest,repeat,frobs=2").is_err());
    }

    #[test]
    fn storage_images_and_samplers() {
        let img = storage_image("1.3=,8x8,rgba32i").unwrap();
        assert_eq!(img.file, None);
        assert_eq!(img.sampler, None);
        assert_eq!(img.binding, BindingSpec { set: 1, binding: 3 });
        assert!(storage_image("1=,8x8,rgba32i,linear").is_err());
        let (b, s) = separate_sampler("0.2=linear,border,mip=linear").unwrap();
        assert_eq!(b, BindingSpec { set: 0, binding: 2 });
        assert_eq!(s.wrap, [Wrap::ClampToBorder; 3]);
        assert_eq!(s.mip_filter, MipFilter::Linear);
        assert!(separate_sampler("0.2").is_err());
    }
}
