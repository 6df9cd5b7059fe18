//! `texture_sample` and `texture_load`: gathers each active lane's operands (see
//! `crate::decode::texture` for where they live) and calls the texture unit
//! (`crate::texture`). Automatic and biased LOD take fine derivatives of the coordinates across
//! the lane's 2x2 quad (lanes `4k..4k+3`), reading the coordinate registers of every lane of the
//! quad; a gather reads the base level whatever its LOD mode, so it takes no derivatives.
//! Results are written at issue and pending on the instruction's wait slot until `wait`.

use super::memory::RunValues;
use super::operand::Lanes;
use super::{Machine, SimdGroup};
use crate::decode::inst::{
    Decoded, ImageLod, ImageWriteInst, LodMode, Reg, TexIndex, TexInstDim, TextureInst,
};
use crate::error::ExecErrorKind;
use crate::formats::float_to_reg;
use crate::memory::{Allocation, DeviceMemory};
use crate::texture::{
    quad_derivatives, Derivatives, LodRequest, SampleRequest, SamplerDescriptor, TexDim,
    TexelMemory, Texture,
};

type Result<T> = std::result::Result<T, ExecErrorKind>;

fn tex_dim(dim: TexInstDim) -> TexDim {
    match dim {
        TexInstDim::D1 => TexDim::D1,
        TexInstDim::D1Array => TexDim::D1Array,
        TexInstDim::D2 => TexDim::D2,
        TexInstDim::D2Array => TexDim::D2Array,
        TexInstDim::D3 => TexDim::D3,
        TexInstDim::Cube => TexDim::Cube,
        TexInstDim::CubeArray => TexDim::CubeArray,
    }
}

/// Where a texture's texels are read (see `Machine::texture_op`): an enum rather than a trait
/// object, so that the allocation's word reads inline into the texture unit.
enum TextureMemory<'a> {
    Allocation(&'a Allocation),
    Device(&'a DeviceMemory),
}

impl TexelMemory for TextureMemory<'_> {
    #[inline(always)]
    fn read_bytes(
        &self,
        address: u64,
        out: &mut [u8],
    ) -> std::result::Result<(), crate::texture::UnmappedAddress> {
        match self {
            TextureMemory::Allocation(a) => TexelMemory::read_bytes(*a, address, out),
            TextureMemory::Device(d) => TexelMemory::read_bytes(*d, address, out),
        }
    }
}

/// Consecutive 32-bit registers from `first`, indexed from 0 (see `Machine::regs32`).
struct Rows<'a> {
    regs: &'a [Lanes<u32>],
    first: u8,
}

impl std::ops::Index<usize> for Rows<'_> {
    type Output = Lanes<u32>;

    fn index(&self, i: usize) -> &Lanes<u32> {
        &self.regs[usize::from((usize::from(self.first) + i) as u8)]
    }
}

impl Machine<'_> {
    /// Checks `count` consecutive 32-bit registers from `first` for reads by `lanes` and
    /// returns them (borrowed: copying them per instruction was a measurable cost).
    fn regs32(g: &SimdGroup, first: u8, count: u32, lanes: u32) -> Result<Rows<'_>> {
        for i in 0..count {
            g.regs
                .check_read(Reg::R32((u32::from(first) + i) as u8), lanes)?;
        }
        Ok(Rows {
            regs: &g.regs.r[..],
            first,
        })
    }

    fn slots(&self, g: &SimdGroup, index: TexIndex, lanes: u32) -> Result<Lanes<u32>> {
        Ok(match index {
            TexIndex::Imm(v) => [u32::from(v); 32],
            TexIndex::Half(h) => {
                g.regs.check_read(Reg::Half(h), lanes)?;
                g.regs.half(h)
            }
        })
    }

    // Out of line, like the other rarer families: see `Machine::step`.
    #[inline(never)]
    pub(super) fn texture_op(
        &mut self,
        g: &mut SimdGroup,
        d: &Decoded,
        t: &TextureInst,
    ) -> Result<()> {
        let lanes = g.exec;
        let n = t.dim.coord_components();
        let implicit = matches!(
            t.lod_mode,
            LodMode::Auto
                | LodMode::BiasReg
                | LodMode::BiasUniform
                | LodMode::BiasMinReg
                | LodMode::BiasMinUniform
        ) && !t.load
            && t.gather.is_none();
        let coord_lanes = if implicit {
            super::float::quad_lanes(lanes) & g.live
        } else {
            lanes
        };
        let coords = Self::regs32(g, t.coords, n + u32::from(t.dim.is_array()), coord_lanes)?;
        let lod_regs = match t.lod_mode {
            LodMode::BiasReg | LodMode::LodReg => 1,
            LodMode::BiasMinReg => 2,
            LodMode::Gradient => 2 * n,
            LodMode::GradientMin => 2 * n + 1,
            _ => 0,
        };
        let lod = Self::regs32(g, t.lod, lod_regs, lanes)?;
        let uniform = |i: u32| self.uniforms[(usize::from(t.lod) + i as usize) & 255];
        let extra = Self::regs32(
            g,
            t.extra,
            u32::from(t.compare) + u32::from(t.offset),
            lanes,
        )?;
        let tex_slots = self.slots(g, t.texture, lanes)?;
        let samp_slots = self.slots(g, t.sampler, lanes)?;

        let float = |v: u32| f32::from_bits(v);
        let offsets = |l: usize| -> [i32; 3] {
            if !t.offset {
                return [0; 3];
            }
            let packed = extra[usize::from(t.compare)][l];
            std::array::from_fn(|i| ((((packed >> (4 * i)) & 0xF) << 28) as i32) >> 28)
        };
        if let Some(fast) = self.fast_2d(t, &tex_slots, &samp_slots, lanes) {
            let offsets: [[i32; 2]; 32] = std::array::from_fn(|l| {
                let [x, y, _] = offsets(l);
                [x, y]
            });
            let rgba = fast.sample_lanes(&coords[0], &coords[1], &offsets, lanes);
            let mut results: RunValues = Default::default();
            for (k, j) in (0..4).filter(|j| t.mask >> j & 1 == 1).enumerate() {
                if t.dst.is_32() {
                    for l in 0..32 {
                        results[k][l] = float_to_reg(f64::from(rgba[j][l]), true);
                    }
                } else {
                    for l in (0..32).filter(|l| lanes >> l & 1 == 1) {
                        results[k][l] = float_to_reg(f64::from(rgba[j][l]), false);
                    }
                }
            }
            Self::write_run(g, t.dst, &results, lanes)?;
            for k in 0..u32::from(t.dst.count) {
                g.regs.set_pending(t.dst.nth(k), t.slot, d.pc);
            }
            return Ok(());
        }
        let coord = |l: usize| -> [f32; 3] {
            std::array::from_fn(|c| {
                if (c as u32) < n {
                    float(coords[c][l])
                } else {
                    0.0
                }
            })
        };
        let derivs: Lanes<Derivatives> = if implicit {
            let mut out = [Derivatives::default(); 32];
            for q in 0..8 {
                let quad: [[f32; 3]; 4] = std::array::from_fn(|j| coord(4 * q + j));
                out[4 * q..4 * q + 4].copy_from_slice(&quad_derivatives(&quad));
            }
            out
        } else {
            [Derivatives::default(); 32]
        };

        // The texture of the last lane and where its texels are read: its allocation when the
        // whole texture lies in one (the same bytes, without a search per texel), else device
        // memory, which reports the faults.
        let mut cached: Option<(u32, Texture, TextureMemory)> = None;
        let mut cached_sampler: Option<(u32, SamplerDescriptor)> = None;
        let mut results: RunValues = Default::default();
        for l in (0..32).filter(|l| lanes >> l & 1 == 1) {
            let thread = l as u32;
            let slot = tex_slots[l];
            // Built when the slot changes, then borrowed: a `Texture` is a few hundred bytes
            // (its level offsets), too many to copy per lane.
            if !matches!(&cached, Some((s, ..)) if *s == slot) {
                let desc = self
                    .textures
                    .get(&slot)
                    .copied()
                    .ok_or(ExecErrorKind::UnboundTexture { thread, slot })?;
                if desc.dim != tex_dim(t.dim) {
                    return Err(ExecErrorKind::TextureDimMismatch {
                        thread,
                        opcode: d.opcode,
                        instruction: t.dim.name(),
                        descriptor: desc.dim,
                    });
                }
                let tex =
                    Texture::new(desc).map_err(|error| ExecErrorKind::Texture { thread, error })?;
                let mem = match self.memory.allocation(desc.address, tex.byte_size()) {
                    Some(allocation) => TextureMemory::Allocation(allocation),
                    None => TextureMemory::Device(self.memory),
                };
                cached = Some((slot, tex, mem));
            }
            let Some((_, texture, mem)) = &cached else {
                // Unreachable: set just above.
                continue;
            };
            let texture_error = |error| ExecErrorKind::Texture { thread, error };
            let rgba = if t.load {
                let ints: [i32; 3] = std::array::from_fn(|c| {
                    if (c as u32) < n {
                        coords[c][l] as i32
                    } else {
                        0
                    }
                });
                let layer = if t.dim.is_array() {
                    coords[n as usize][l] as i32
                } else {
                    0
                };
                let level = match t.lod_mode {
                    LodMode::LodReg => lod[0][l] as i32,
                    LodMode::LodUniform => uniform(0) as i32,
                    _ => 0,
                };
                texture
                    .fetch(mem, ints, layer, level)
                    .map_err(texture_error)?
            } else {
                let sampler_slot = samp_slots[l];
                let sampler = match cached_sampler {
                    Some((s, sampler)) if s == sampler_slot => sampler,
                    _ => {
                        let sampler = self.samplers.get(&sampler_slot).copied().ok_or(
                            ExecErrorKind::UnboundSampler {
                                thread,
                                slot: sampler_slot,
                            },
                        )?;
                        cached_sampler = Some((sampler_slot, sampler));
                        sampler
                    }
                };
                let from_uniform = t.lod_mode.from_uniform();
                let operand = |i: u32| -> f32 {
                    float(if from_uniform {
                        uniform(i)
                    } else {
                        lod[i as usize][l]
                    })
                };
                let request = match t.lod_mode {
                    LodMode::Auto => LodRequest::auto(derivs[l]),
                    LodMode::BiasReg | LodMode::BiasUniform => {
                        LodRequest::bias(derivs[l], operand(0))
                    }
                    LodMode::BiasMinReg | LodMode::BiasMinUniform => {
                        LodRequest::bias(derivs[l], operand(0)).with_min_lod(operand(1))
                    }
                    LodMode::LodReg | LodMode::LodUniform => LodRequest::explicit(operand(0)),
                    LodMode::Gradient | LodMode::GradientMin => {
                        let mut g = Derivatives::default();
                        for c in 0..n as usize {
                            g.dx[c] = float(lod[2 * c][l]);
                            g.dy[c] = float(lod[2 * c + 1][l]);
                        }
                        let r = LodRequest::gradient(g);
                        if t.lod_mode == LodMode::GradientMin {
                            r.with_min_lod(float(lod[2 * n as usize][l]))
                        } else {
                            r
                        }
                    }
                };
                let mut req = SampleRequest::new(coord(l), request);
                if t.dim.is_array() {
                    req = req.with_layer(float(coords[n as usize][l]));
                }
                if t.compare {
                    req = req.with_compare(float(extra[0][l]));
                }
                if t.offset {
                    req = req.with_offset(offsets(l));
                }
                match t.gather {
                    Some(component) => texture.gather(mem, &sampler, &req, component),
                    None => texture.sample(mem, &sampler, &req),
                }
                .map_err(texture_error)?
            };
            // Integer texels are words in f32 containers: their bits go to the registers
            // unconverted (a 16-bit destination keeps the low half).
            let integer = texture.descriptor().format.is_integer();
            for (k, j) in (0..4).filter(|j| t.mask >> j & 1 == 1).enumerate() {
                results[k][l] = match (integer, t.dst.is_32()) {
                    (true, true) => rgba[j].to_bits(),
                    (true, false) => rgba[j].to_bits() & 0xFFFF,
                    (false, is_32) => float_to_reg(f64::from(rgba[j]), is_32),
                };
            }
        }
        Self::write_run(g, t.dst, &results, lanes)?;
        for k in 0..u32::from(t.dst.count) {
            g.regs.set_pending(t.dst.nth(k), t.slot, d.pc);
        }
        Ok(())
    }

    /// The texture unit's fast path for this instruction (see `crate::texture`'s `fast`): a
    /// plain 2D sample (no load, gather or compare) whose active lanes all name the same
    /// texture and sampler, a pair the fast path handles. Anything the general path would
    /// report as an error (unbound slots, a dimensionality mismatch, a bad descriptor) keeps it
    /// off the fast path.
    fn fast_2d(
        &self,
        t: &TextureInst,
        tex_slots: &Lanes<u32>,
        samp_slots: &Lanes<u32>,
        lanes: u32,
    ) -> Option<crate::texture::Fast2d<'_>> {
        if t.load || t.gather.is_some() || t.compare || t.dim != TexInstDim::D2 || lanes == 0 {
            return None;
        }
        let first = lanes.trailing_zeros() as usize;
        let (tex, samp) = (tex_slots[first], samp_slots[first]);
        let uniform = (0..32)
            .filter(|l| lanes >> l & 1 == 1)
            .all(|l| tex_slots[l] == tex && samp_slots[l] == samp);
        if !uniform {
            return None;
        }
        let desc = *self.textures.get(&tex)?;
        let sampler = self.samplers.get(&samp)?;
        Texture::new(desc).ok()?.fast_2d(self.memory, sampler)
    }

    /// `image_write`: each live, non-helper thread converts its four components to the
    /// bound texture's format and stores them at its integer coordinates and level; a
    /// texel outside the texture (coordinate, layer or level) is not written, as robust
    /// image access drops it. 16-bit data registers hold halves (widened to f32 for float
    /// formats, zero-extended for integer ones).
    #[inline(never)]
    pub(super) fn image_write(
        &mut self,
        g: &mut SimdGroup,
        d: &Decoded,
        w: &ImageWriteInst,
    ) -> Result<()> {
        let lanes = g.exec;
        let n = w.dim.coord_components();
        let coords = Self::regs32(g, w.coords, n + u32::from(w.dim.is_array()), lanes)?;
        let data = Self::read_run(g, w.data, lanes)?;
        let levels = match w.lod {
            ImageLod::Imm(v) => [u32::from(v); 32],
            ImageLod::Half(h) => {
                g.regs.check_read(Reg::Half(h), lanes)?;
                g.regs.half(h)
            }
        };
        let tex_slots = self.slots(g, w.texture, lanes)?;
        let writers = lanes & !g.helper & !g.discarded;
        for l in (0..32).filter(|l| writers >> l & 1 == 1) {
            let thread = l as u32;
            let slot = tex_slots[l];
            let desc = self
                .textures
                .get(&slot)
                .copied()
                .ok_or(ExecErrorKind::UnboundTexture { thread, slot })?;
            if desc.dim != tex_dim(w.dim) {
                return Err(ExecErrorKind::TextureDimMismatch {
                    thread,
                    opcode: d.opcode,
                    instruction: w.dim.name(),
                    descriptor: desc.dim,
                });
            }
            let texture =
                Texture::new(desc).map_err(|error| ExecErrorKind::Texture { thread, error })?;
            let ints: [i32; 3] = std::array::from_fn(|c| {
                if (c as u32) < n {
                    coords[c][l] as i32
                } else {
                    0
                }
            });
            let layer = if w.dim.is_array() {
                coords[n as usize][l] as i32
            } else {
                0
            };
            let level = i32::from(levels[l] as u16);
            let Some(address) = texture.texel_at(ints, layer, level) else {
                continue;
            };
            let format = desc.format;
            let words: [u32; 4] = std::array::from_fn(|k| {
                let v = data[k][l];
                match (w.data.is_32(), format.is_integer()) {
                    (true, _) => v,
                    (false, true) => v & 0xFFFF,
                    (false, false) => half::f16::from_bits(v as u16).to_f32().to_bits(),
                }
            });
            let (bytes, len) = format.encode(words);
            self.memory
                .store_bytes(address, &bytes[..len])
                .map_err(|_| ExecErrorKind::DeviceFault {
                    thread,
                    access: "image store",
                    address,
                    len: len as u32,
                })?;
        }
        Ok(())
    }
}
