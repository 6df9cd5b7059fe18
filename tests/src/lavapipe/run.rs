//! Running one case: bind its resources, dispatch or draw, and read its outputs back.

use ash::vk;

use super::context::{entry_name, Lavapipe, MAIN};
use super::error::{LavapipeError, VkContext};
use super::resources::{full_range, Binding, HostBuffer, SampledTexture, Scratch};
use super::vertex::vertex_shader;
use crate::corpus::{Case, Inputs, OutputKey, Outputs, Stage};

/// RGBA32F: what every render target is.
const TARGET_FORMAT: vk::Format = vk::Format::R32G32B32A32_SFLOAT;
const TARGET_TEXEL_BYTES: usize = 16;

/// The buffers and textures of a case, bound and ready.
struct Bound {
    buffers: Vec<HostBuffer>,
    textures: Vec<SampledTexture>,
    set_layouts: Vec<vk::DescriptorSetLayout>,
    sets: Vec<vk::DescriptorSet>,
}

impl Lavapipe {
    /// Runs `case` with `inputs` (normally `case.inputs()`) and returns its outputs: every buffer
    /// marked `output` and, for fragment cases, every declared render target.
    pub fn run(&self, case: &Case, inputs: &Inputs) -> Result<Outputs, LavapipeError> {
        let m = &case.manifest;
        for (what, actual, wanted) in [
            ("buffers", inputs.buffers.len(), m.buffers.len()),
            ("textures", inputs.textures.len(), m.textures.len()),
        ] {
            if actual != wanted {
                return Err(LavapipeError::InputCount {
                    what,
                    actual,
                    wanted,
                });
            }
        }
        for (t, texels) in m.textures.iter().zip(&inputs.textures) {
            if texels.len() != t.total_bytes() {
                return Err(LavapipeError::TextureBytes {
                    set: t.set,
                    binding: t.binding,
                    actual: texels.len(),
                    wanted: t.total_bytes(),
                });
            }
        }
        let words = case.spv_words()?;
        let mut scratch = Scratch::new(self);
        let stages = match m.stage {
            Stage::Compute => vk::ShaderStageFlags::COMPUTE,
            Stage::Fragment => vk::ShaderStageFlags::FRAGMENT,
        };
        let bound = bind(&mut scratch, case, inputs, stages)?;
        let layout = scratch.pipeline_layout(&bound.set_layouts, inputs.push.len(), stages)?;
        let module = scratch.shader_module(&words)?;
        let entry = entry_name(&m.entry)?;
        let cmd = scratch.begin_commands()?;
        let device = &self.device;
        for t in &bound.textures {
            t.record_upload(device, cmd);
        }
        let targets = match m.stage {
            Stage::Compute => {
                let pipeline = compute_pipeline(&mut scratch, layout, module, &entry)?;
                let [x, y, z] = m.groups.unwrap_or([1, 1, 1]);
                record_bindings(
                    device,
                    cmd,
                    vk::PipelineBindPoint::COMPUTE,
                    pipeline,
                    layout,
                    &bound,
                    &inputs.push,
                    stages,
                );
                // SAFETY: `cmd` is recording and the compute pipeline is bound.
                unsafe { device.cmd_dispatch(cmd, x, y, z) };
                Vec::new()
            }
            Stage::Fragment => draw(
                &mut scratch,
                case,
                cmd,
                layout,
                module,
                &entry,
                &bound,
                &inputs.push,
            )?,
        };
        // Storage images marked as outputs are copied to host buffers.
        let mut image_reads = Vec::new();
        for (spec, texture) in m.textures.iter().zip(&bound.textures) {
            if spec.output {
                let buffer = scratch.host_buffer(
                    spec.total_bytes(),
                    vk::BufferUsageFlags::TRANSFER_DST,
                    &[],
                )?;
                texture.record_readback(device, cmd, buffer.buffer);
                image_reads.push((spec.set, spec.binding, buffer));
            }
        }
        // Make shader and transfer writes visible to the host reads below.
        let to_host = vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ);
        // SAFETY: `cmd` is recording; ending it is the last command.
        unsafe {
            device.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::ALL_COMMANDS,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &[to_host],
                &[],
                &[],
            );
            device
                .end_command_buffer(cmd)
                .during("vkEndCommandBuffer")?;
        }
        self.submit_and_wait(cmd)?;

        let mut outputs = Outputs::default();
        for (spec, buffer) in m.buffers.iter().zip(&bound.buffers) {
            if spec.output {
                outputs.insert(
                    OutputKey::Buffer {
                        set: spec.set,
                        binding: spec.binding,
                    },
                    buffer.read(),
                );
            }
        }
        for (location, readback) in targets {
            outputs.insert(OutputKey::Target { location }, readback.read());
        }
        for (set, binding, buffer) in image_reads {
            outputs.insert(OutputKey::Image { set, binding }, buffer.read());
        }
        Ok(outputs)
    }
}

fn bind(
    scratch: &mut Scratch<'_>,
    case: &Case,
    inputs: &Inputs,
    stages: vk::ShaderStageFlags,
) -> Result<Bound, LavapipeError> {
    let m = &case.manifest;
    let usage = vk::BufferUsageFlags::STORAGE_BUFFER
        | vk::BufferUsageFlags::UNIFORM_BUFFER
        | vk::BufferUsageFlags::TRANSFER_SRC
        | vk::BufferUsageFlags::TRANSFER_DST;
    let mut bindings = Vec::new();
    let mut buffers = Vec::new();
    for (spec, bytes) in m.buffers.iter().zip(&inputs.buffers) {
        let buffer = scratch.host_buffer(spec.size, usage, bytes)?;
        bindings.push(Binding::buffer(
            spec.set,
            spec.binding,
            spec.kind,
            buffer.buffer,
        ));
        buffers.push(buffer);
    }
    let mut textures = Vec::new();
    for (spec, texels) in m.textures.iter().zip(&inputs.textures) {
        let texture = scratch.texture(spec, texels)?;
        bindings.push(Binding::texture(spec.set, spec.binding, &texture));
        textures.push(texture);
    }
    let (set_layouts, sets) = scratch.descriptor_sets(&bindings, stages)?;
    Ok(Bound {
        buffers,
        textures,
        set_layouts,
        sets,
    })
}

#[allow(clippy::too_many_arguments)]
fn record_bindings(
    device: &ash::Device,
    cmd: vk::CommandBuffer,
    bind_point: vk::PipelineBindPoint,
    pipeline: vk::Pipeline,
    layout: vk::PipelineLayout,
    bound: &Bound,
    push: &[u8],
    stages: vk::ShaderStageFlags,
) {
    // SAFETY: `cmd` is recording; pipeline, layout and sets were made for each other.
    unsafe {
        device.cmd_bind_pipeline(cmd, bind_point, pipeline);
        if !bound.sets.is_empty() {
            device.cmd_bind_descriptor_sets(cmd, bind_point, layout, 0, &bound.sets, &[]);
        }
        if !push.is_empty() {
            device.cmd_push_constants(cmd, layout, stages, 0, push);
        }
    }
}

fn compute_pipeline(
    scratch: &mut Scratch<'_>,
    layout: vk::PipelineLayout,
    module: vk::ShaderModule,
    entry: &std::ffi::CStr,
) -> Result<vk::Pipeline, LavapipeError> {
    let stage = vk::PipelineShaderStageCreateInfo::default()
        .stage(vk::ShaderStageFlags::COMPUTE)
        .module(module)
        .name(entry);
    let info = [vk::ComputePipelineCreateInfo::default()
        .stage(stage)
        .layout(layout)];
    // SAFETY: valid device, module and layout.
    let pipeline = unsafe {
        scratch
            .ctx
            .device
            .create_compute_pipelines(vk::PipelineCache::null(), &info, None)
    }
    .map_err(|(_, result)| LavapipeError::Vulkan {
        call: "vkCreateComputePipelines",
        result,
    })?[0];
    scratch.own_pipeline(pipeline);
    Ok(pipeline)
}

/// Records the draw of a fragment case; returns the read-back buffer of each target.
#[allow(clippy::too_many_arguments)]
fn draw(
    scratch: &mut Scratch<'_>,
    case: &Case,
    cmd: vk::CommandBuffer,
    layout: vk::PipelineLayout,
    module: vk::ShaderModule,
    entry: &std::ffi::CStr,
    bound: &Bound,
    push: &[u8],
) -> Result<Vec<(u32, HostBuffer)>, LavapipeError> {
    let m = &case.manifest;
    let [width, height] = m.size.unwrap_or([1, 1]);
    let vertex = vertex_shader(&m.varyings, width, height)?;
    let vertex_module = scratch.shader_module(&vertex)?;

    // Attachment slot i is fragment output location i; slots without a target stay unused.
    let slots = m.targets.iter().map(|t| t.location + 1).max().unwrap_or(0) as usize;
    let mut formats = vec![vk::Format::UNDEFINED; slots];
    let mut views = vec![vk::ImageView::null(); slots];
    let mut targets = Vec::new();
    let mut images = Vec::new();
    for t in &m.targets {
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(TARGET_FORMAT)
            .extent(vk::Extent3D {
                width,
                height,
                depth: 1,
            })
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        let (image, view) = scratch.image(
            &info,
            vk::ImageViewType::TYPE_2D,
            vk::ImageAspectFlags::COLOR,
        )?;
        let bytes = width as usize * height as usize * TARGET_TEXEL_BYTES;
        let readback = scratch.host_buffer(bytes, vk::BufferUsageFlags::TRANSFER_DST, &[])?;
        formats[t.location as usize] = TARGET_FORMAT;
        views[t.location as usize] = view;
        images.push(image);
        targets.push((t.location, readback));
    }
    let pipeline = graphics_pipeline(
        scratch,
        layout,
        vertex_module,
        module,
        entry,
        &formats,
        width,
        height,
    )?;

    let device = &scratch.ctx.device;
    let color = full_range(vk::ImageAspectFlags::COLOR, 1, 1);
    let to_attachment: Vec<_> = images
        .iter()
        .map(|&image| {
            vk::ImageMemoryBarrier::default()
                .dst_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
                .old_layout(vk::ImageLayout::UNDEFINED)
                .new_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(image)
                .subresource_range(color)
        })
        .collect();
    let to_transfer: Vec<_> = to_attachment
        .iter()
        .map(|b| {
            b.src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
                .dst_access_mask(vk::AccessFlags::TRANSFER_READ)
                .old_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                .new_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
        })
        .collect();
    let [r, g, b, a] = m.clear;
    let attachments: Vec<_> = views
        .iter()
        .map(|&view| {
            vk::RenderingAttachmentInfo::default()
                .image_view(view)
                .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                .load_op(vk::AttachmentLoadOp::CLEAR)
                .store_op(vk::AttachmentStoreOp::STORE)
                .clear_value(vk::ClearValue {
                    color: vk::ClearColorValue {
                        float32: [r, g, b, a],
                    },
                })
        })
        .collect();
    let area = vk::Rect2D {
        offset: vk::Offset2D::default(),
        extent: vk::Extent2D { width, height },
    };
    let rendering = vk::RenderingInfo::default()
        .render_area(area)
        .layer_count(1)
        .color_attachments(&attachments);
    // SAFETY: `cmd` is recording; every image, view and buffer belongs to this case.
    unsafe {
        device.cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::TOP_OF_PIPE,
            vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &to_attachment,
        );
        device.cmd_begin_rendering(cmd, &rendering);
    }
    record_bindings(
        device,
        cmd,
        vk::PipelineBindPoint::GRAPHICS,
        pipeline,
        layout,
        bound,
        push,
        vk::ShaderStageFlags::FRAGMENT,
    );
    // SAFETY: as above; the graphics pipeline is bound inside the rendering scope.
    unsafe {
        device.cmd_draw(cmd, 3, 1, 0, 0);
        device.cmd_end_rendering(cmd);
        device.cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
            vk::PipelineStageFlags::TRANSFER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &to_transfer,
        );
        for (&image, (_, readback)) in images.iter().zip(&targets) {
            let region = vk::BufferImageCopy {
                buffer_offset: 0,
                buffer_row_length: 0,
                buffer_image_height: 0,
                image_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    mip_level: 0,
                    base_array_layer: 0,
                    layer_count: 1,
                },
                image_offset: vk::Offset3D::default(),
                image_extent: vk::Extent3D {
                    width,
                    height,
                    depth: 1,
                },
            };
            device.cmd_copy_image_to_buffer(
                cmd,
                image,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                readback.buffer,
                &[region],
            );
        }
    }
    Ok(targets)
}

#[allow(clippy::too_many_arguments)]
fn graphics_pipeline(
    scratch: &mut Scratch<'_>,
    layout: vk::PipelineLayout,
    vertex: vk::ShaderModule,
    fragment: vk::ShaderModule,
    entry: &std::ffi::CStr,
    formats: &[vk::Format],
    width: u32,
    height: u32,
) -> Result<vk::Pipeline, LavapipeError> {
    let stages = [
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::VERTEX)
            .module(vertex)
            .name(MAIN),
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::FRAGMENT)
            .module(fragment)
            .name(entry),
    ];
    let vertex_input = vk::PipelineVertexInputStateCreateInfo::default();
    let assembly = vk::PipelineInputAssemblyStateCreateInfo::default()
        .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
    let viewports = [vk::Viewport {
        x: 0.0,
        y: 0.0,
        width: width as f32,
        height: height as f32,
        min_depth: 0.0,
        max_depth: 1.0,
    }];
    let scissors = [vk::Rect2D {
        offset: vk::Offset2D::default(),
        extent: vk::Extent2D { width, height },
    }];
    let viewport = vk::PipelineViewportStateCreateInfo::default()
        .viewports(&viewports)
        .scissors(&scissors);
    let raster = vk::PipelineRasterizationStateCreateInfo::default()
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(vk::CullModeFlags::NONE)
        // The triangle (0, 0), (2w, 0), (0, 2h) winds clockwise in framebuffer coordinates
        // (y down); declaring clockwise as front makes gl_FrontFacing true.
        .front_face(vk::FrontFace::CLOCKWISE)
        .line_width(1.0);
    let multisample = vk::PipelineMultisampleStateCreateInfo::default()
        .rasterization_samples(vk::SampleCountFlags::TYPE_1);
    let blend_states: Vec<_> = formats
        .iter()
        .map(|_| {
            vk::PipelineColorBlendAttachmentState::default()
                .blend_enable(false)
                .color_write_mask(vk::ColorComponentFlags::RGBA)
        })
        .collect();
    let blend = vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend_states);
    let mut rendering =
        vk::PipelineRenderingCreateInfo::default().color_attachment_formats(formats);
    let info = [vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&vertex_input)
        .input_assembly_state(&assembly)
        .viewport_state(&viewport)
        .rasterization_state(&raster)
        .multisample_state(&multisample)
        .color_blend_state(&blend)
        .layout(layout)
        .push_next(&mut rendering)];
    // SAFETY: valid device; every state struct lives across the call.
    let pipeline = unsafe {
        scratch
            .ctx
            .device
            .create_graphics_pipelines(vk::PipelineCache::null(), &info, None)
    }
    .map_err(|(_, result)| LavapipeError::Vulkan {
        call: "vkCreateGraphicsPipelines",
        result,
    })?[0];
    scratch.own_pipeline(pipeline);
    Ok(pipeline)
}
