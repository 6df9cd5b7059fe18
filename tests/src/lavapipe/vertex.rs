//! The vertex shader that feeds a fragment case its varyings, generated from the manifest.
//!
//! One triangle covers the target: its corners sit at framebuffer positions (0, 0), (2w, 0) and
//! (0, 2h) (clip-space (-1, -1), (3, -1), (-1, 3) with the viewport at the target), all with
//! `w = 1` so perspective-correct interpolation is plain affine interpolation. Each corner carries
//! the affine model's value at that position, so the rasteriser reproduces
//! `base + ddx * (x + 0.5) + ddy * (y + 0.5)` at pixel centres up to rounding. The shader picks
//! the corner's values from constant arrays indexed by `gl_VertexIndex`. It is assembled with
//! `rspirv` at run time, so the manifest stays the only description of the varyings.
//!
//! Flat varyings come from the provoking vertex, which for a triangle list in Vulkan's default
//! first-vertex mode is vertex 0 (Vulkan specification, "Primitive Topologies", triangle lists:
//! the provoking vertex of primitive `i` is vertex `3i`; "Flat Interpolation": a flat fragment
//! input takes the provoking vertex's value). Corner 0 carries the manifest's words (`base`,
//! the f32 bits or the integer). For integer varyings, which a Vulkan fragment shader must
//! declare `Flat` (VUID-StandaloneSpirv-Flat-04744), corners 1 and 2 carry the words' bitwise
//! complements, so a recording that did not come from the provoking vertex shows up as a
//! mismatch in `lavapipe_recheck`. A flat f32 varying carries its value at every corner: a
//! manifest may call an input flat that the shader interpolates (a constant, as in `sw_toon`).
//! Flat outputs are decorated `Flat` as well, which Vulkan does not require of vertex outputs.

use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionModel, FunctionControl, MemoryModel,
    StorageClass, Word,
};

use super::error::LavapipeError;
use crate::corpus::{ScalarType, Varying};

/// Clip-space x and y of the three corners.
const CORNERS: [[f32; 2]; 3] = [[-1.0, -1.0], [3.0, -1.0], [-1.0, 3.0]];

/// The framebuffer positions of the corners for a `width` x `height` target.
fn corner_positions(width: u32, height: u32) -> [[f64; 2]; 3] {
    let (w, h) = (f64::from(width), f64::from(height));
    [[0.0, 0.0], [2.0 * w, 0.0], [0.0, 2.0 * h]]
}

/// SPIR-V words of the vertex shader for `varyings` on a `width` x `height` target.
pub fn vertex_shader(
    varyings: &[Varying],
    width: u32,
    height: u32,
) -> Result<Vec<u32>, LavapipeError> {
    let mut b = Builder::new();
    b.set_version(1, 0);
    b.capability(Capability::Shader);
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);

    let void = b.type_void();
    let fn_void = b.type_function(void, []);
    let f32_ty = b.type_float(32, None);
    let i32_ty = b.type_int(32, 1);
    let u32_ty = b.type_int(32, 0);
    let vec4 = b.type_vector(f32_ty, 4);
    let three = b.constant_bit32(u32_ty, 3);

    let mut interface = Vec::new();
    let in_i32 = b.type_pointer(None, StorageClass::Input, i32_ty);
    let vertex_index = b.variable(in_i32, None, StorageClass::Input, None);
    b.decorate(
        vertex_index,
        Decoration::BuiltIn,
        [Operand::BuiltIn(BuiltIn::VertexIndex)],
    );
    interface.push(vertex_index);
    let out_vec4 = b.type_pointer(None, StorageClass::Output, vec4);
    let position = b.variable(out_vec4, None, StorageClass::Output, None);
    b.decorate(
        position,
        Decoration::BuiltIn,
        [Operand::BuiltIn(BuiltIn::Position)],
    );
    interface.push(position);

    // Per output: (output variable, its value type, the constant array of corner values).
    let mut outputs: Vec<(Word, Word, Word)> = Vec::new();
    let position_words: Vec<Vec<u32>> = CORNERS
        .iter()
        .map(|[x, y]| vec![x.to_bits(), y.to_bits(), 0.0f32.to_bits(), 1.0f32.to_bits()])
        .collect();
    let pos_array = corner_array(&mut b, f32_ty, 4, three, &position_words);
    outputs.push((position, vec4, pos_array));

    let corners = corner_positions(width, height);
    for v in varyings {
        let scalar = match v.ty {
            ScalarType::F32 => f32_ty,
            ScalarType::I32 => i32_ty,
            ScalarType::U32 => u32_ty,
        };
        let value_ty = if v.components == 1 {
            scalar
        } else {
            b.type_vector(scalar, v.components)
        };
        let words: Vec<Vec<u32>> = corners
            .iter()
            .enumerate()
            .map(|(corner, [fx, fy])| corner_words(v, corner, *fx, *fy))
            .collect();
        let array = corner_array(&mut b, scalar, v.components, three, &words);
        let out_ptr = b.type_pointer(None, StorageClass::Output, value_ty);
        let out = b.variable(out_ptr, None, StorageClass::Output, None);
        b.decorate(
            out,
            Decoration::Location,
            [Operand::LiteralBit32(v.location)],
        );
        if v.flat {
            b.decorate(out, Decoration::Flat, []);
        }
        interface.push(out);
        outputs.push((out, value_ty, array));
    }

    let main = b.begin_function(void, None, FunctionControl::NONE, fn_void)?;
    b.begin_block(None)?;
    // Function variables must come first in the entry block; they take the constant arrays as
    // initialisers so that a dynamic index (the vertex index) can address them.
    let mut locals = Vec::new();
    for &(_, value_ty, array) in &outputs {
        let array_ty = b.type_array(value_ty, three);
        let fn_ptr = b.type_pointer(None, StorageClass::Function, array_ty);
        locals.push(b.variable(fn_ptr, None, StorageClass::Function, Some(array)));
    }
    let index = b.load(i32_ty, None, vertex_index, None, [])?;
    for (&(out, value_ty, _), local) in outputs.iter().zip(locals) {
        let elem_ptr = b.type_pointer(None, StorageClass::Function, value_ty);
        let at = b.access_chain(elem_ptr, None, local, [index])?;
        let value = b.load(value_ty, None, at, None, [])?;
        b.store(out, value, None, [])?;
    }
    b.ret()?;
    b.end_function()?;
    b.entry_point(ExecutionModel::Vertex, main, "main", interface);
    Ok(b.module().assemble())
}

/// The provoking vertex of the one triangle (see the module docs).
const PROVOKING_CORNER: usize = 0;

/// The varying's words at corner `corner`, framebuffer position `(fx, fy)`: f32 bits, or the
/// integer. A flat integer varying's words at the provoking corner, their complements
/// elsewhere.
fn corner_words(v: &Varying, corner: usize, fx: f64, fy: f64) -> Vec<u32> {
    let words = v.value_at(fx, fy).into_iter().map(|x| match v.ty {
        ScalarType::F32 => (x as f32).to_bits(),
        ScalarType::I32 => (x as i32) as u32,
        ScalarType::U32 => x as u32,
    });
    if v.flat && v.ty != ScalarType::F32 && corner != PROVOKING_CORNER {
        words.map(|w| !w).collect()
    } else {
        words.collect()
    }
}

/// A constant array of three values of `components` x `scalar`, from their bit patterns.
fn corner_array(
    b: &mut Builder,
    scalar: Word,
    components: u32,
    three: Word,
    corners: &[Vec<u32>],
) -> Word {
    let value_ty = if components == 1 {
        scalar
    } else {
        b.type_vector(scalar, components)
    };
    let array_ty = b.type_array(value_ty, three);
    let values: Vec<Word> = corners
        .iter()
        .map(|words| {
            if components == 1 {
                return b.constant_bit32(scalar, words.first().copied().unwrap_or(0));
            }
            let parts: Vec<Word> = (0..components as usize)
                .map(|c| b.constant_bit32(scalar, words.get(c).copied().unwrap_or(0)))
                .collect();
            b.constant_composite(value_ty, parts)
        })
        .collect();
    b.constant_composite(array_ty, values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_reproduce_the_affine_model() {
        // Interpolating the corner values with barycentric weights at a pixel centre must give
        // the model's value there: check the plane through the corners in f64.
        let v = Varying {
            location: 0,
            components: 1,
            ty: ScalarType::F32,
            base: vec![0.25],
            ddx: vec![0.5],
            ddy: vec![-2.0],
            flat: false,
        };
        let [c0, c1, c2] = corner_positions(8, 4);
        let f = |p: [f64; 2]| v.value_at(p[0], p[1])[0];
        let (a, bx, by) = (f(c0), f(c1), f(c2));
        // Pixel (3, 1): centre (3.5, 1.5); barycentric weights from the corner geometry.
        let (x, y) = (3.5, 1.5);
        let w1 = x / c1[0];
        let w2 = y / c2[1];
        let w0 = 1.0 - w1 - w2;
        let interpolated = w0 * a + w1 * bx + w2 * by;
        assert_eq!(interpolated, 0.25 + 0.5 * 3.5 - 2.0 * 1.5);
    }

    #[test]
    fn only_the_provoking_corner_carries_a_flat_value() {
        let v = Varying {
            location: 1,
            components: 2,
            ty: ScalarType::U32,
            base: vec![3_735_928_559.0, 7.0],
            ddx: vec![1.0],
            ddy: vec![],
            flat: true,
        };
        let [c0, c1, c2] = corner_positions(16, 16);
        assert_eq!(corner_words(&v, 0, c0[0], c0[1]), [0xDEAD_BEEF, 7]);
        assert_eq!(corner_words(&v, 1, c1[0], c1[1]), [0x2152_4110, !7]);
        assert_eq!(corner_words(&v, 2, c2[0], c2[1]), [0x2152_4110, !7]);
        // Interpolated varyings carry the model's value at every corner, flat floats their
        // value (32 pixels right of the origin: 3735928559 + 32).
        let smooth = Varying {
            flat: false,
            ..v.clone()
        };
        assert_eq!(corner_words(&smooth, 1, c1[0], c1[1]), [3_735_928_591, 7]);
        let float = Varying {
            ty: ScalarType::F32,
            base: vec![1.5, -2.0],
            ..v
        };
        let bits = [1.5f32.to_bits(), (-2.0f32).to_bits()];
        assert_eq!(corner_words(&float, 2, c2[0], c2[1]), bits);
    }

    #[test]
    fn assembles_a_module_with_header() {
        let v = Varying {
            location: 2,
            components: 3,
            ty: ScalarType::F32,
            base: vec![1.0, 2.0, 3.0],
            ddx: vec![],
            ddy: vec![],
            flat: false,
        };
        let words = vertex_shader(&[v], 4, 4).expect("builds");
        assert_eq!(words[0], 0x0723_0203, "SPIR-V magic number");
        assert_eq!(words[1], 0x0001_0000, "version 1.0");
    }
}
