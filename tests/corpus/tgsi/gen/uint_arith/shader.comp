#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): unsigned add, sub, mul, div, mod with wrap-around
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { uvec4 a[]; };
layout(std430, binding = 1) writeonly buffer R { uvec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 x = a[i];
    uvec4 y = x.yzwx | 1u;
    r[5u * i + 0u] = x + y;
    r[5u * i + 1u] = x - y;
    r[5u * i + 2u] = x * y;
    r[5u * i + 3u] = x / y;
    r[5u * i + 4u] = x % (y & 0xffffu) + 0xfffffff0u;
}
