#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): signed add, sub, mul, div, mod and negate
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { ivec4 a[]; };
layout(std430, binding = 1) readonly buffer B { ivec4 b[]; };
layout(std430, binding = 2) writeonly buffer R { ivec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 x = a[i];
    ivec4 y = b[i];
    // Divisors are never zero: |y| is in [1, 100] and the sign comes from bit 0 of x.
    ivec4 d = y * (1 - 2 * (x & 1));
    r[5u * i + 0u] = x + y;
    r[5u * i + 1u] = x - y * 3;
    r[5u * i + 2u] = x * y;
    r[5u * i + 3u] = x / d;
    r[5u * i + 4u] = -x + x % y;
}
