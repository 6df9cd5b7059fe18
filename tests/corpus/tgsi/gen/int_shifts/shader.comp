#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): left shift, arithmetic and logical right shift by 0 to 31
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { ivec4 a[]; };
layout(std430, binding = 1) writeonly buffer R { uvec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 x = a[i];
    uvec4 n = uvec4(i, i + 7u, i * 3u, 31u - i % 32u) % 32u;
    uvec4 ux = uvec4(x);
    r[3u * i + 0u] = uvec4(x << ivec4(n));
    r[3u * i + 1u] = uvec4(x >> ivec4(n));
    r[3u * i + 2u] = ux >> n;
}
