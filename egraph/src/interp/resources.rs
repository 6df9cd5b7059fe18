//! Caller-supplied resources: storage and uniform buffers, push constants, textures and
//! samplers, under the IR's binding model (`(set, binding)` plus byte offsets; see
//! [`crate::ir::EffectOp`]).
//!
//! Buffers are byte vectors in the layout the shader expects (little-endian scalars); a run
//! writes storage buffers in place, so the caller reads results back from the same
//! `Resources`.

use super::texture::{Sampler, Texture};
use crate::ir::Binding;
use std::collections::BTreeMap;

/// How a buffer is bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferKind {
    /// A storage buffer: loads and stores.
    Storage,
    /// A uniform buffer: loads only.
    Uniform,
}

/// A bound buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    /// Storage or uniform.
    pub kind: BufferKind,
    /// Contents.
    pub data: Vec<u8>,
}

/// Everything a shader can read or write besides its stage inputs.
#[derive(Clone, Debug, Default)]
pub struct Resources {
    buffers: BTreeMap<Binding, Buffer>,
    push_constants: Vec<u8>,
    textures: BTreeMap<Binding, Texture>,
    samplers: BTreeMap<Binding, Sampler>,
}

impl Resources {
    /// No resources.
    pub fn new() -> Resources {
        Resources::default()
    }

    /// Binds a storage buffer (replacing whatever was bound there).
    pub fn bind_storage(&mut self, binding: Binding, data: Vec<u8>) -> &mut Resources {
        self.buffers.insert(
            binding,
            Buffer {
                kind: BufferKind::Storage,
                data,
            },
        );
        self
    }

    /// Binds a uniform buffer.
    pub fn bind_uniform(&mut self, binding: Binding, data: Vec<u8>) -> &mut Resources {
        self.buffers.insert(
            binding,
            Buffer {
                kind: BufferKind::Uniform,
                data,
            },
        );
        self
    }

    /// Sets the push-constant bytes.
    pub fn set_push_constants(&mut self, data: Vec<u8>) -> &mut Resources {
        self.push_constants = data;
        self
    }

    /// Binds a texture; storage images are textures too (one level), bound the same way and
    /// written in place by `image_store`.
    pub fn bind_texture(&mut self, binding: Binding, texture: Texture) -> &mut Resources {
        self.textures.insert(binding, texture);
        self
    }

    /// Binds a sampler.
    pub fn bind_sampler(&mut self, binding: Binding, sampler: Sampler) -> &mut Resources {
        self.samplers.insert(binding, sampler);
        self
    }

    /// Binds a combined image-sampler: the texture and the sampler at the same binding.
    pub fn bind_combined(
        &mut self,
        binding: Binding,
        texture: Texture,
        sampler: Sampler,
    ) -> &mut Resources {
        self.bind_texture(binding, texture)
            .bind_sampler(binding, sampler)
    }

    /// The buffer bound at `binding`.
    pub fn buffer(&self, binding: Binding) -> Option<&Buffer> {
        self.buffers.get(&binding)
    }

    /// The buffer bound at `binding`, mutably.
    pub fn buffer_mut(&mut self, binding: Binding) -> Option<&mut Buffer> {
        self.buffers.get_mut(&binding)
    }

    /// The contents of the buffer bound at `binding`, of either kind.
    pub fn buffer_data(&self, binding: Binding) -> Option<&[u8]> {
        self.buffers.get(&binding).map(|b| b.data.as_slice())
    }

    /// Every bound buffer, in binding order.
    pub fn buffers(&self) -> impl Iterator<Item = (Binding, &Buffer)> {
        self.buffers.iter().map(|(&b, buf)| (b, buf))
    }

    /// The push-constant bytes.
    pub fn push_constants(&self) -> &[u8] {
        &self.push_constants
    }

    /// The texture bound at `binding`.
    pub fn texture(&self, binding: Binding) -> Option<&Texture> {
        self.textures.get(&binding)
    }

    /// The texture (or storage image) bound at `binding`, mutably.
    pub fn texture_mut(&mut self, binding: Binding) -> Option<&mut Texture> {
        self.textures.get_mut(&binding)
    }

    /// The sampler bound at `binding`.
    pub fn sampler(&self, binding: Binding) -> Option<&Sampler> {
        self.samplers.get(&binding)
    }
}

/// Resources as a run holds them: compute and fragment runs may write storage buffers, a vertex
/// run only reads.
pub(crate) enum ResourcesRef<'a> {
    Mut(&'a mut Resources),
    Shared(&'a Resources),
}

impl ResourcesRef<'_> {
    pub fn get(&self) -> &Resources {
        match self {
            ResourcesRef::Mut(r) => r,
            ResourcesRef::Shared(r) => r,
        }
    }

    pub fn get_mut(&mut self) -> Option<&mut Resources> {
        match self {
            ResourcesRef::Mut(r) => Some(r),
            ResourcesRef::Shared(_) => None,
        }
    }
}

/// Little-endian bytes of f32 values (buffer contents).
pub fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// f32 values from little-endian bytes (a trailing partial value is ignored).
pub fn bytes_f32(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Little-endian bytes of u32 values.
pub fn u32_bytes(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// u32 values from little-endian bytes (a trailing partial value is ignored).
pub fn bytes_u32(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
