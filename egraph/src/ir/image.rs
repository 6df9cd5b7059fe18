//! Storage images: formats, the operation record of `image_load`, `image_store` and
//! `image_size`, and their type rules.
//!
//! A storage image is bound at a `(set, binding)` like a texture and addressed by integer texel
//! coordinates (plus the layer for arrays) at mip level 0, without a sampler. Loads and stores
//! move four components: `f32` for float and normalized formats, `i32` (signless; the format
//! says how the bits read) for integer formats. A load of a format with fewer than four
//! channels fills the missing ones with `(0, 0, 1)` (`1` or `1.0` by class); a store writes the
//! channels the format has and drops the rest. Out-of-range coordinates read zeros and drop
//! stores, as Vulkan's robust image access does.
//!
//! [`ImageFormat::Unknown`] is SPIR-V's `Unknown` image format (the `StorageImage{Read,Write}
//! WithoutFormat` capabilities): the bound image's own format applies, and the results' type
//! says which class the shader expects.

use super::effects::{Binding, TexDim, TexTarget};
use super::types::Type;

/// The texel format a storage image is declared with.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum ImageFormat {
    /// Four binary32 channels.
    Rgba32f,
    /// Four binary16 channels.
    Rgba16f,
    /// One binary32 channel.
    R32f,
    /// Four 8-bit unsigned normalized channels.
    Rgba8,
    /// Four unsigned 32-bit integer channels.
    Rgba32ui,
    /// Four signed 32-bit integer channels.
    Rgba32i,
    /// One unsigned 32-bit integer channel.
    R32ui,
    /// One signed 32-bit integer channel.
    R32i,
    /// Not declared: the bound image's format.
    Unknown,
}

/// Whether texels of a format read as floats or as integers.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TexelClass {
    /// Float or normalized: `f32` components.
    Float,
    /// Integer: `i32` components.
    Int,
}

impl TexelClass {
    /// The IR type of one component.
    pub fn ty(self) -> Type {
        match self {
            TexelClass::Float => Type::F32,
            TexelClass::Int => Type::I32,
        }
    }

    /// The class of a component type (`None` for types texels never have).
    pub fn of(ty: Type) -> Option<TexelClass> {
        match ty {
            Type::F32 => Some(TexelClass::Float),
            Type::I32 => Some(TexelClass::Int),
            _ => None,
        }
    }
}

impl ImageFormat {
    /// Every format, in text-form order (used by the parser and tests).
    pub const ALL: [ImageFormat; 9] = [
        ImageFormat::Rgba32f,
        ImageFormat::Rgba16f,
        ImageFormat::R32f,
        ImageFormat::Rgba8,
        ImageFormat::Rgba32ui,
        ImageFormat::Rgba32i,
        ImageFormat::R32ui,
        ImageFormat::R32i,
        ImageFormat::Unknown,
    ];

    /// Text-form name (GLSL's layout qualifier spelling; `unknown` for no format).
    pub fn name(self) -> &'static str {
        match self {
            ImageFormat::Rgba32f => "rgba32f",
            ImageFormat::Rgba16f => "rgba16f",
            ImageFormat::R32f => "r32f",
            ImageFormat::Rgba8 => "rgba8",
            ImageFormat::Rgba32ui => "rgba32ui",
            ImageFormat::Rgba32i => "rgba32i",
            ImageFormat::R32ui => "r32ui",
            ImageFormat::R32i => "r32i",
            ImageFormat::Unknown => "unknown",
        }
    }

    /// The format named `s` in the text form.
    pub fn parse(s: &str) -> Option<ImageFormat> {
        ImageFormat::ALL.into_iter().find(|f| f.name() == s)
    }

    /// The class of the components, or `None` for [`ImageFormat::Unknown`].
    pub fn class(self) -> Option<TexelClass> {
        match self {
            ImageFormat::Rgba32f
            | ImageFormat::Rgba16f
            | ImageFormat::R32f
            | ImageFormat::Rgba8 => Some(TexelClass::Float),
            ImageFormat::Rgba32ui
            | ImageFormat::Rgba32i
            | ImageFormat::R32ui
            | ImageFormat::R32i => Some(TexelClass::Int),
            ImageFormat::Unknown => None,
        }
    }
}

/// A storage-image access: which image, its target and its declared format.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ImageOp {
    /// The image's binding.
    pub image: Binding,
    /// Dimensionality and arrayness (not cube).
    pub target: TexTarget,
    /// Declared format.
    pub format: ImageFormat,
}

impl ImageOp {
    /// Number of integer coordinate operands: one per axis, plus the layer for arrays.
    pub fn coords(&self) -> usize {
        self.target.dim.coords() + self.target.arrayed as usize
    }
}

/// Why a storage-image operation's operands or results do not fit it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImageTypeError {
    /// Storage images are 1D, 2D or 3D (arrays of 1D and 2D).
    #[error("storage images cannot be cube maps")]
    Cube,
    /// Coordinates are not the target's number of `i32`s.
    #[error("an image access takes {0} i32 coordinates")]
    Coords(usize),
    /// Texel components are not four `f32` or four `i32`.
    #[error("image texels are four f32 or four i32 values")]
    Texel,
    /// The texel class does not match the declared format's.
    #[error("{} texels of a {} image", class_name(*.found), .format.name())]
    FormatClass {
        /// The texels' class.
        found: TexelClass,
        /// The declared format.
        format: ImageFormat,
    },
    /// A size query has results other than the target's sizes.
    #[error("an image size query has {0} i32 results")]
    SizeResults(usize),
}

fn class_name(c: TexelClass) -> &'static str {
    match c {
        TexelClass::Float => "float",
        TexelClass::Int => "integer",
    }
}

/// The class of four texel components of one class (`f32` or `i32`), or `None`.
pub fn texel_class(tys: &[Type]) -> Option<TexelClass> {
    match tys {
        [a, b, c, d] if a == b && b == c && c == d => TexelClass::of(*a),
        _ => None,
    }
}

impl ImageOp {
    fn check_target(&self) -> Result<(), ImageTypeError> {
        if self.target.dim == TexDim::Cube {
            return Err(ImageTypeError::Cube);
        }
        Ok(())
    }

    fn check_coords(&self, args: &[Type]) -> Result<(), ImageTypeError> {
        if args.len() != self.coords() || args.iter().any(|&t| t != Type::I32) {
            return Err(ImageTypeError::Coords(self.coords()));
        }
        Ok(())
    }

    fn check_texel(&self, tys: &[Type]) -> Result<(), ImageTypeError> {
        let class = texel_class(tys).ok_or(ImageTypeError::Texel)?;
        match self.format.class() {
            Some(want) if want != class => Err(ImageTypeError::FormatClass {
                found: class,
                format: self.format,
            }),
            _ => Ok(()),
        }
    }

    /// Type rule of `image_load`: coordinates in, four texel components out.
    pub fn check_load(&self, args: &[Type], results: &[Type]) -> Result<(), ImageTypeError> {
        self.check_target()?;
        self.check_coords(args)?;
        self.check_texel(results)
    }

    /// Type rule of `image_store`: coordinates then four texel components, no results.
    pub fn check_store(&self, args: &[Type], results: &[Type]) -> Result<(), ImageTypeError> {
        self.check_target()?;
        let n = self.coords();
        if args.len() != n + 4 {
            return Err(ImageTypeError::Texel);
        }
        self.check_coords(&args[..n])?;
        self.check_texel(&args[n..])?;
        if !results.is_empty() {
            return Err(ImageTypeError::Texel);
        }
        Ok(())
    }

    /// Type rule of `image_size`: no operands; the size per axis, then the layer count.
    pub fn check_size(&self, args: &[Type], results: &[Type]) -> Result<(), ImageTypeError> {
        self.check_target()?;
        let n = self.target.dim.size_components() + self.target.arrayed as usize;
        if !args.is_empty() || results.len() != n || results.iter().any(|&t| t != Type::I32) {
            return Err(ImageTypeError::SizeResults(n));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(dim: TexDim, arrayed: bool, format: ImageFormat) -> ImageOp {
        ImageOp {
            image: Binding::new(0, 1),
            target: TexTarget { dim, arrayed },
            format,
        }
    }

    #[test]
    fn format_names_round_trip() {
        for f in ImageFormat::ALL {
            assert_eq!(ImageFormat::parse(f.name()), Some(f));
        }
        assert_eq!(ImageFormat::parse("rgba32"), None);
    }

    #[test]
    fn load_types() {
        let o = op(TexDim::D2, false, ImageFormat::Rgba32f);
        assert_eq!(o.check_load(&[Type::I32; 2], &[Type::F32; 4]), Ok(()));
        assert_eq!(
            o.check_load(&[Type::I32; 2], &[Type::I32; 4]),
            Err(ImageTypeError::FormatClass {
                found: TexelClass::Int,
                format: ImageFormat::Rgba32f
            })
        );
        assert_eq!(
            o.check_load(&[Type::I32; 3], &[Type::F32; 4]),
            Err(ImageTypeError::Coords(2))
        );
        let arr = op(TexDim::D2, true, ImageFormat::Unknown);
        assert_eq!(arr.check_load(&[Type::I32; 3], &[Type::I32; 4]), Ok(()));
        assert_eq!(
            arr.check_load(
                &[Type::I32; 3],
                &[Type::F32, Type::F32, Type::F32, Type::I32]
            ),
            Err(ImageTypeError::Texel)
        );
    }

    #[test]
    fn store_and_size_types() {
        let o = op(TexDim::D1, false, ImageFormat::R32ui);
        let mut args = vec![Type::I32];
        args.extend([Type::I32; 4]);
        assert_eq!(o.check_store(&args, &[]), Ok(()));
        assert_eq!(o.check_store(&args[..4], &[]), Err(ImageTypeError::Texel));
        assert_eq!(o.check_size(&[], &[Type::I32]), Ok(()));
        let cube = op(TexDim::Cube, false, ImageFormat::Rgba8);
        assert_eq!(
            cube.check_size(&[], &[Type::I32; 2]),
            Err(ImageTypeError::Cube)
        );
        let d3 = op(TexDim::D3, false, ImageFormat::Rgba8);
        assert_eq!(
            d3.check_size(&[], &[Type::I32; 2]),
            Err(ImageTypeError::SizeResults(3))
        );
    }
}
