//! Per-case Vulkan objects: host-visible buffers, sampled textures with their samplers, storage
//! images, render targets and descriptor sets, all owned by a [`Scratch`] that destroys them when the case ends
//! (also on every error path).

use ash::vk;

use super::context::Lavapipe;
use super::error::{LavapipeError, VkContext};
use crate::corpus::{
    BufferKind, CompareOp, Filter, MipMode, TexelFormat, Texture, TextureDim, Wrap,
};

/// A buffer in host-visible, coherent memory, mapped for its whole life.
pub(crate) struct HostBuffer {
    pub(crate) buffer: vk::Buffer,
    mapped: *mut u8,
    size: usize,
}

impl HostBuffer {
    /// Copies the buffer's contents out. Call after the GPU work that writes it has completed.
    pub(crate) fn read(&self) -> Vec<u8> {
        // SAFETY: `mapped` points at `size` bytes of coherent memory that stays mapped until the
        // owning `Scratch` is dropped, and the caller waited for the GPU.
        unsafe { std::slice::from_raw_parts(self.mapped, self.size) }.to_vec()
    }
}

/// A sampled texture (image, view and sampler) or a storage image (no sampler, kept in the
/// `GENERAL` layout), plus what is needed to upload it and read it back.
pub(crate) struct SampledTexture {
    pub(crate) image: vk::Image,
    pub(crate) view: vk::ImageView,
    pub(crate) sampler: vk::Sampler,
    pub(crate) staging: vk::Buffer,
    pub(crate) aspect: vk::ImageAspectFlags,
    pub(crate) levels: u32,
    pub(crate) layers: u32,
    pub(crate) regions: Vec<vk::BufferImageCopy>,
    /// Bound as a storage image.
    pub(crate) storage: bool,
}

/// Owns every object created for one case and destroys them in reverse order.
pub(crate) struct Scratch<'a> {
    pub(crate) ctx: &'a Lavapipe,
    memories: Vec<vk::DeviceMemory>,
    buffers: Vec<vk::Buffer>,
    images: Vec<vk::Image>,
    views: Vec<vk::ImageView>,
    samplers: Vec<vk::Sampler>,
    set_layouts: Vec<vk::DescriptorSetLayout>,
    pools: Vec<vk::DescriptorPool>,
    layouts: Vec<vk::PipelineLayout>,
    modules: Vec<vk::ShaderModule>,
    pipelines: Vec<vk::Pipeline>,
    commands: Vec<vk::CommandBuffer>,
}

impl Drop for Scratch<'_> {
    fn drop(&mut self) {
        let d = &self.ctx.device;
        // SAFETY: every handle was created on this device by this scratch, and the device is
        // idle (waited below) so none is in use.
        unsafe {
            let _ = d.device_wait_idle();
            if !self.commands.is_empty() {
                d.free_command_buffers(self.ctx.pool, &self.commands);
            }
            self.pipelines
                .iter()
                .for_each(|&p| d.destroy_pipeline(p, None));
            self.modules
                .iter()
                .for_each(|&m| d.destroy_shader_module(m, None));
            self.layouts
                .iter()
                .for_each(|&l| d.destroy_pipeline_layout(l, None));
            self.pools
                .iter()
                .for_each(|&p| d.destroy_descriptor_pool(p, None));
            self.set_layouts
                .iter()
                .for_each(|&l| d.destroy_descriptor_set_layout(l, None));
            self.samplers
                .iter()
                .for_each(|&s| d.destroy_sampler(s, None));
            self.views
                .iter()
                .for_each(|&v| d.destroy_image_view(v, None));
            self.images.iter().for_each(|&i| d.destroy_image(i, None));
            self.buffers.iter().for_each(|&b| d.destroy_buffer(b, None));
            self.memories.iter().for_each(|&m| d.free_memory(m, None));
        }
    }
}

impl<'a> Scratch<'a> {
    pub(crate) fn new(ctx: &'a Lavapipe) -> Self {
        Scratch {
            ctx,
            memories: Vec::new(),
            buffers: Vec::new(),
            images: Vec::new(),
            views: Vec::new(),
            samplers: Vec::new(),
            set_layouts: Vec::new(),
            pools: Vec::new(),
            layouts: Vec::new(),
            modules: Vec::new(),
            pipelines: Vec::new(),
            commands: Vec::new(),
        }
    }

    fn device(&self) -> &ash::Device {
        &self.ctx.device
    }

    /// A host-visible buffer holding `contents` (zero-filled when `contents` is shorter).
    pub(crate) fn host_buffer(
        &mut self,
        size: usize,
        usage: vk::BufferUsageFlags,
        contents: &[u8],
    ) -> Result<HostBuffer, LavapipeError> {
        let info = vk::BufferCreateInfo::default()
            .size(size.max(4) as u64)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        // SAFETY: valid device and create info.
        let buffer =
            unsafe { self.device().create_buffer(&info, None) }.during("vkCreateBuffer")?;
        self.buffers.push(buffer);
        // SAFETY: `buffer` is a valid buffer of this device.
        let req = unsafe { self.device().get_buffer_memory_requirements(buffer) };
        let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let memory = self.allocate(req, host, "a host-visible buffer")?;
        // SAFETY: fresh memory of a compatible type and size, mapped once.
        let mapped = unsafe {
            self.device()
                .bind_buffer_memory(buffer, memory, 0)
                .during("vkBindBufferMemory")?;
            self.device()
                .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
                .during("vkMapMemory")?
        } as *mut u8;
        let n = contents.len().min(size);
        // SAFETY: the mapping covers at least `size` bytes and does not overlap `contents`.
        unsafe {
            std::ptr::write_bytes(mapped, 0, size);
            std::ptr::copy_nonoverlapping(contents.as_ptr(), mapped, n);
        }
        Ok(HostBuffer {
            buffer,
            mapped,
            size,
        })
    }

    fn allocate(
        &mut self,
        req: vk::MemoryRequirements,
        flags: vk::MemoryPropertyFlags,
        what: &'static str,
    ) -> Result<vk::DeviceMemory, LavapipeError> {
        let index = self.ctx.memory_type(req.memory_type_bits, flags, what)?;
        let info = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(index);
        // SAFETY: valid device and allocate info.
        let memory =
            unsafe { self.device().allocate_memory(&info, None) }.during("vkAllocateMemory")?;
        self.memories.push(memory);
        Ok(memory)
    }

    /// A device-local image with memory bound, and a view of all its levels and layers.
    pub(crate) fn image(
        &mut self,
        info: &vk::ImageCreateInfo<'_>,
        view_type: vk::ImageViewType,
        aspect: vk::ImageAspectFlags,
    ) -> Result<(vk::Image, vk::ImageView), LavapipeError> {
        // SAFETY: valid device and create info.
        let image = unsafe { self.device().create_image(info, None) }.during("vkCreateImage")?;
        self.images.push(image);
        // SAFETY: `image` is a valid image of this device.
        let req = unsafe { self.device().get_image_memory_requirements(image) };
        let memory = self.allocate(req, vk::MemoryPropertyFlags::empty(), "an image")?;
        // SAFETY: fresh memory of a compatible type and size.
        unsafe { self.device().bind_image_memory(image, memory, 0) }.during("vkBindImageMemory")?;
        let view_info = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(view_type)
            .format(info.format)
            .subresource_range(full_range(aspect, info.mip_levels, info.array_layers));
        // SAFETY: the view matches the image's format, levels and layers.
        let view = unsafe { self.device().create_image_view(&view_info, None) }
            .during("vkCreateImageView")?;
        self.views.push(view);
        Ok((image, view))
    }

    /// A texture per the case's spec, with `texels` staged for upload (see
    /// [`SampledTexture::record_upload`]).
    pub(crate) fn texture(
        &mut self,
        spec: &Texture,
        texels: &[u8],
    ) -> Result<SampledTexture, LavapipeError> {
        let format = vk_format(spec.format);
        let features = self.ctx.format_features(format);
        let needs_linear =
            !spec.storage && (spec.filter == Filter::Linear || spec.mip == MipMode::Linear);
        for (flag, name, needed) in [
            (
                vk::FormatFeatureFlags::SAMPLED_IMAGE,
                "SAMPLED_IMAGE",
                !spec.storage,
            ),
            (
                vk::FormatFeatureFlags::STORAGE_IMAGE,
                "STORAGE_IMAGE",
                spec.storage,
            ),
            (
                vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR,
                "SAMPLED_IMAGE_FILTER_LINEAR",
                needs_linear,
            ),
        ] {
            if needed && !features.contains(flag) {
                return Err(LavapipeError::FormatUnsupported {
                    format: spec.format,
                    feature: name,
                });
            }
        }
        let [w, h, d] = spec.extent();
        let (image_type, view_type, depth, layers) = match spec.dim {
            TextureDim::D1 => (vk::ImageType::TYPE_1D, vk::ImageViewType::TYPE_1D, 1, 1),
            TextureDim::D2 => (vk::ImageType::TYPE_2D, vk::ImageViewType::TYPE_2D, 1, 1),
            TextureDim::D2Array => (
                vk::ImageType::TYPE_2D,
                vk::ImageViewType::TYPE_2D_ARRAY,
                1,
                d,
            ),
            TextureDim::D3 => (vk::ImageType::TYPE_3D, vk::ImageViewType::TYPE_3D, d, 1),
            TextureDim::Cube => (vk::ImageType::TYPE_2D, vk::ImageViewType::CUBE, 1, 6),
        };
        let flags = if spec.dim == TextureDim::Cube {
            vk::ImageCreateFlags::CUBE_COMPATIBLE
        } else {
            vk::ImageCreateFlags::empty()
        };
        let info = vk::ImageCreateInfo::default()
            .flags(flags)
            .image_type(image_type)
            .format(format)
            .extent(vk::Extent3D {
                width: w,
                height: h,
                depth,
            })
            .mip_levels(spec.levels)
            .array_layers(layers)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(if spec.storage {
                vk::ImageUsageFlags::STORAGE
                    | vk::ImageUsageFlags::TRANSFER_DST
                    | vk::ImageUsageFlags::TRANSFER_SRC
            } else {
                vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST
            })
            .initial_layout(vk::ImageLayout::UNDEFINED);
        let aspect = if spec.format == TexelFormat::D32f {
            vk::ImageAspectFlags::DEPTH
        } else {
            vk::ImageAspectFlags::COLOR
        };
        let (image, view) = self.image(&info, view_type, aspect)?;
        let staging = self.host_buffer(texels.len(), vk::BufferUsageFlags::TRANSFER_SRC, texels)?;
        let regions = spec
            .layout()
            .iter()
            .enumerate()
            .map(|(level, l)| vk::BufferImageCopy {
                buffer_offset: l.offset as u64,
                buffer_row_length: 0,
                buffer_image_height: 0,
                image_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: aspect,
                    mip_level: level as u32,
                    base_array_layer: 0,
                    layer_count: layers,
                },
                image_offset: vk::Offset3D::default(),
                image_extent: vk::Extent3D {
                    width: l.width,
                    height: l.height,
                    depth: if spec.dim == TextureDim::D3 {
                        l.depth_or_layers
                    } else {
                        1
                    },
                },
            })
            .collect();
        let sampler = if spec.storage {
            vk::Sampler::null()
        } else {
            self.sampler(spec)?
        };
        Ok(SampledTexture {
            image,
            view,
            sampler,
            staging: staging.buffer,
            aspect,
            levels: spec.levels,
            layers,
            regions,
            storage: spec.storage,
        })
    }

    fn sampler(&mut self, spec: &Texture) -> Result<vk::Sampler, LavapipeError> {
        let filter = match spec.filter {
            Filter::Nearest => vk::Filter::NEAREST,
            Filter::Linear => vk::Filter::LINEAR,
        };
        let address = match spec.wrap {
            Wrap::Repeat => vk::SamplerAddressMode::REPEAT,
            Wrap::Clamp => vk::SamplerAddressMode::CLAMP_TO_EDGE,
            Wrap::Mirror => vk::SamplerAddressMode::MIRRORED_REPEAT,
        };
        let (mipmap_mode, max_lod) = match spec.mip {
            // Clamping the LOD to 0 confines sampling to level 0.
            MipMode::None => (vk::SamplerMipmapMode::NEAREST, 0.0),
            MipMode::Nearest => (vk::SamplerMipmapMode::NEAREST, spec.levels as f32),
            MipMode::Linear => (vk::SamplerMipmapMode::LINEAR, spec.levels as f32),
        };
        let mut info = vk::SamplerCreateInfo::default()
            .mag_filter(filter)
            .min_filter(filter)
            .mipmap_mode(mipmap_mode)
            .address_mode_u(address)
            .address_mode_v(address)
            .address_mode_w(address)
            .min_lod(0.0)
            .max_lod(max_lod)
            .border_color(vk::BorderColor::FLOAT_TRANSPARENT_BLACK);
        if let Some(op) = spec.compare {
            info = info.compare_enable(true).compare_op(vk_compare(op));
        }
        // SAFETY: valid device and create info.
        let sampler =
            unsafe { self.device().create_sampler(&info, None) }.during("vkCreateSampler")?;
        self.samplers.push(sampler);
        Ok(sampler)
    }

    /// Descriptor set layouts for sets `0..=max`, a pool and the allocated sets.
    pub(crate) fn descriptor_sets(
        &mut self,
        bindings: &[Binding],
        stages: vk::ShaderStageFlags,
    ) -> Result<(Vec<vk::DescriptorSetLayout>, Vec<vk::DescriptorSet>), LavapipeError> {
        let set_count = bindings.iter().map(|b| b.set + 1).max().unwrap_or(0);
        let mut layouts = Vec::new();
        for set in 0..set_count {
            let list: Vec<_> = bindings
                .iter()
                .filter(|b| b.set == set)
                .map(|b| {
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(b.binding)
                        .descriptor_type(b.ty)
                        .descriptor_count(1)
                        .stage_flags(stages)
                })
                .collect();
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&list);
            // SAFETY: valid device and create info.
            let layout = unsafe { self.device().create_descriptor_set_layout(&info, None) }
                .during("vkCreateDescriptorSetLayout")?;
            self.set_layouts.push(layout);
            layouts.push(layout);
        }
        if layouts.is_empty() {
            return Ok((layouts, Vec::new()));
        }
        let mut sizes: Vec<vk::DescriptorPoolSize> = Vec::new();
        for b in bindings {
            match sizes.iter_mut().find(|s| s.ty == b.ty) {
                Some(s) => s.descriptor_count += 1,
                None => sizes.push(vk::DescriptorPoolSize {
                    ty: b.ty,
                    descriptor_count: 1,
                }),
            }
        }
        let info = vk::DescriptorPoolCreateInfo::default()
            .max_sets(set_count)
            .pool_sizes(&sizes);
        // SAFETY: valid device and create info.
        let pool = unsafe { self.device().create_descriptor_pool(&info, None) }
            .during("vkCreateDescriptorPool")?;
        self.pools.push(pool);
        let alloc = vk::DescriptorSetAllocateInfo::default()
            .descriptor_pool(pool)
            .set_layouts(&layouts);
        // SAFETY: the pool has room for one set per layout.
        let sets = unsafe { self.device().allocate_descriptor_sets(&alloc) }
            .during("vkAllocateDescriptorSets")?;
        let buffer_infos: Vec<[vk::DescriptorBufferInfo; 1]> = bindings
            .iter()
            .map(|b| {
                [vk::DescriptorBufferInfo {
                    buffer: b.buffer,
                    offset: 0,
                    range: vk::WHOLE_SIZE,
                }]
            })
            .collect();
        let image_infos: Vec<[vk::DescriptorImageInfo; 1]> = bindings
            .iter()
            .map(|b| {
                [vk::DescriptorImageInfo {
                    sampler: b.sampler,
                    image_view: b.view,
                    image_layout: if b.ty == vk::DescriptorType::STORAGE_IMAGE {
                        vk::ImageLayout::GENERAL
                    } else {
                        vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL
                    },
                }]
            })
            .collect();
        let writes: Vec<_> = bindings
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let w = vk::WriteDescriptorSet::default()
                    .dst_set(sets[b.set as usize])
                    .dst_binding(b.binding)
                    .descriptor_type(b.ty);
                if b.ty == vk::DescriptorType::COMBINED_IMAGE_SAMPLER
                    || b.ty == vk::DescriptorType::STORAGE_IMAGE
                {
                    w.image_info(&image_infos[i])
                } else {
                    w.buffer_info(&buffer_infos[i])
                }
            })
            .collect();
        // SAFETY: every write names a binding of its set's layout with a live resource.
        unsafe { self.device().update_descriptor_sets(&writes, &[]) };
        Ok((layouts, sets))
    }

    /// A pipeline layout over `set_layouts` with an optional push-constant range.
    pub(crate) fn pipeline_layout(
        &mut self,
        set_layouts: &[vk::DescriptorSetLayout],
        push_bytes: usize,
        stages: vk::ShaderStageFlags,
    ) -> Result<vk::PipelineLayout, LavapipeError> {
        let ranges = [vk::PushConstantRange {
            stage_flags: stages,
            offset: 0,
            size: push_bytes as u32,
        }];
        let mut info = vk::PipelineLayoutCreateInfo::default().set_layouts(set_layouts);
        if push_bytes > 0 {
            info = info.push_constant_ranges(&ranges);
        }
        // SAFETY: valid device and create info.
        let layout = unsafe { self.device().create_pipeline_layout(&info, None) }
            .during("vkCreatePipelineLayout")?;
        self.layouts.push(layout);
        Ok(layout)
    }

    /// A shader module from SPIR-V words.
    pub(crate) fn shader_module(
        &mut self,
        words: &[u32],
    ) -> Result<vk::ShaderModule, LavapipeError> {
        let info = vk::ShaderModuleCreateInfo::default().code(words);
        // SAFETY: valid device and create info; the driver validates the words' header.
        let module = unsafe { self.device().create_shader_module(&info, None) }
            .during("vkCreateShaderModule")?;
        self.modules.push(module);
        Ok(module)
    }

    /// Takes ownership of a pipeline.
    pub(crate) fn own_pipeline(&mut self, pipeline: vk::Pipeline) {
        self.pipelines.push(pipeline);
    }

    /// A primary command buffer, begun for one submission.
    pub(crate) fn begin_commands(&mut self) -> Result<vk::CommandBuffer, LavapipeError> {
        let info = vk::CommandBufferAllocateInfo::default()
            .command_pool(self.ctx.pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: valid device and pool.
        let cmd = unsafe { self.device().allocate_command_buffers(&info) }
            .during("vkAllocateCommandBuffers")?[0];
        self.commands.push(cmd);
        let begin = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        // SAFETY: a freshly allocated command buffer.
        unsafe { self.device().begin_command_buffer(cmd, &begin) }
            .during("vkBeginCommandBuffer")?;
        Ok(cmd)
    }
}

/// One descriptor: a buffer or a combined image sampler at `(set, binding)`.
pub(crate) struct Binding {
    pub(crate) set: u32,
    pub(crate) binding: u32,
    pub(crate) ty: vk::DescriptorType,
    pub(crate) buffer: vk::Buffer,
    pub(crate) view: vk::ImageView,
    pub(crate) sampler: vk::Sampler,
}

impl Binding {
    pub(crate) fn buffer(set: u32, binding: u32, kind: BufferKind, buffer: vk::Buffer) -> Self {
        let ty = match kind {
            BufferKind::Storage => vk::DescriptorType::STORAGE_BUFFER,
            BufferKind::Uniform => vk::DescriptorType::UNIFORM_BUFFER,
        };
        Binding {
            set,
            binding,
            ty,
            buffer,
            view: vk::ImageView::null(),
            sampler: vk::Sampler::null(),
        }
    }

    pub(crate) fn texture(set: u32, binding: u32, t: &SampledTexture) -> Self {
        Binding {
            set,
            binding,
            ty: if t.storage {
                vk::DescriptorType::STORAGE_IMAGE
            } else {
                vk::DescriptorType::COMBINED_IMAGE_SAMPLER
            },
            buffer: vk::Buffer::null(),
            view: t.view,
            sampler: t.sampler,
        }
    }
}

impl SampledTexture {
    /// The layout the shader sees the image in.
    fn shader_layout(&self) -> vk::ImageLayout {
        if self.storage {
            vk::ImageLayout::GENERAL
        } else {
            vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL
        }
    }

    /// Records the read-back of a storage image after the shader ran: layout to transfer
    /// source, copy every level to `buffer` in the upload's layout.
    pub(crate) fn record_readback(
        &self,
        device: &ash::Device,
        cmd: vk::CommandBuffer,
        buffer: vk::Buffer,
    ) {
        let range = full_range(self.aspect, self.levels, self.layers);
        let to_src = vk::ImageMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE)
            .dst_access_mask(vk::AccessFlags::TRANSFER_READ)
            .old_layout(self.shader_layout())
            .new_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(self.image)
            .subresource_range(range);
        // SAFETY: `cmd` is recording; image, buffer and regions belong to this case, and the
        // buffer holds the texture's total size.
        unsafe {
            device.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::FRAGMENT_SHADER,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[to_src],
            );
            device.cmd_copy_image_to_buffer(
                cmd,
                self.image,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                buffer,
                &self.regions,
            );
        }
    }

    /// Records the upload: layout to transfer destination, copy every level, layout to shader
    /// read-only (`GENERAL` for storage images).
    pub(crate) fn record_upload(&self, device: &ash::Device, cmd: vk::CommandBuffer) {
        let range = full_range(self.aspect, self.levels, self.layers);
        let to_dst = vk::ImageMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::empty())
            .dst_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .old_layout(vk::ImageLayout::UNDEFINED)
            .new_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(self.image)
            .subresource_range(range);
        let to_read = to_dst
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE)
            .old_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .new_layout(self.shader_layout());
        // SAFETY: `cmd` is recording; image, buffer and regions belong to this case.
        unsafe {
            device.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[to_dst],
            );
            device.cmd_copy_buffer_to_image(
                cmd,
                self.staging,
                self.image,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &self.regions,
            );
            device.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::FRAGMENT_SHADER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[to_read],
            );
        }
    }
}

/// A subresource range covering every level and layer.
pub(crate) fn full_range(
    aspect: vk::ImageAspectFlags,
    levels: u32,
    layers: u32,
) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: aspect,
        base_mip_level: 0,
        level_count: levels,
        base_array_layer: 0,
        layer_count: layers,
    }
}

fn vk_format(format: TexelFormat) -> vk::Format {
    match format {
        TexelFormat::Rgba8 => vk::Format::R8G8B8A8_UNORM,
        TexelFormat::Rgba16f => vk::Format::R16G16B16A16_SFLOAT,
        TexelFormat::Rgba32f => vk::Format::R32G32B32A32_SFLOAT,
        TexelFormat::R32f => vk::Format::R32_SFLOAT,
        TexelFormat::D32f => vk::Format::D32_SFLOAT,
        TexelFormat::Rgba32ui => vk::Format::R32G32B32A32_UINT,
        TexelFormat::Rgba32i => vk::Format::R32G32B32A32_SINT,
        TexelFormat::R32ui => vk::Format::R32_UINT,
        TexelFormat::R32i => vk::Format::R32_SINT,
    }
}

fn vk_compare(op: CompareOp) -> vk::CompareOp {
    match op {
        CompareOp::Less => vk::CompareOp::LESS,
        CompareOp::LessEqual => vk::CompareOp::LESS_OR_EQUAL,
        CompareOp::Greater => vk::CompareOp::GREATER,
        CompareOp::GreaterEqual => vk::CompareOp::GREATER_OR_EQUAL,
        CompareOp::Equal => vk::CompareOp::EQUAL,
        CompareOp::NotEqual => vk::CompareOp::NOT_EQUAL,
        CompareOp::Always => vk::CompareOp::ALWAYS,
        CompareOp::Never => vk::CompareOp::NEVER,
    }
}
