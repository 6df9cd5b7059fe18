#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): and, or, xor, not on signed and unsigned vectors
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { uvec4 a[]; };
layout(std430, binding = 1) readonly buffer B { ivec4 b[]; };
layout(std430, binding = 2) writeonly buffer R { uvec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 x = a[i];
    ivec4 y = b[i];
    r[4u * i + 0u] = x & uvec4(y);
    r[4u * i + 1u] = x | 0x00ff00ffu;
    r[4u * i + 2u] = x ^ x.wzyx;
    r[4u * i + 3u] = uvec4(~y) & ~x;
}
