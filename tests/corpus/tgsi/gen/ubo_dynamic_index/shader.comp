#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): uniform array indexed by a value from memory (ADDR-relative CONST access)
layout(local_size_x = 64) in;
layout(std140, binding = 1) uniform Table { vec4 entries[16]; };
layout(std430, binding = 0) readonly buffer A { uint a[]; };
layout(std430, binding = 2) writeonly buffer R { vec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint k = a[i] % 16u;
    r[i] = entries[k] + entries[(k + 5u) % 16u].yxwz * vec4(0.5, -1.0, 2.0, 0.25);
}
