#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): floor, ceil, round, roundEven, trunc, fract, mod, sign, abs
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) writeonly buffer R { float r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    r[10u * i + 0u] = floor(x);
    r[10u * i + 1u] = ceil(x);
    r[10u * i + 2u] = roundEven(x);
    r[10u * i + 3u] = trunc(x);
    r[10u * i + 4u] = fract(x);
    r[10u * i + 5u] = mod(x, 2.5);
    r[10u * i + 6u] = mod(x, -1.75);
    r[10u * i + 7u] = sign(x);
    r[10u * i + 8u] = abs(x);
    r[10u * i + 9u] = roundEven(x * 2.0) * 0.5;
}
