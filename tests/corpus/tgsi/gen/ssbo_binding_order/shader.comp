#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): three storage blocks declared out of binding order (TGSI BUFFER renumbering)
layout(local_size_x = 64) in;
layout(std430, binding = 5) writeonly buffer Zed { uint z[]; };
layout(std430, binding = 0) readonly buffer Alpha { uint x[]; };
layout(std430, binding = 2) readonly buffer Mid { uint y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    z[i] = x[i] * 3u + y[63u - i];
}
