#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): float add, sub, mul, div, negate and multiply-add on vec4
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { vec4 a[]; };
layout(std430, binding = 1) readonly buffer B { vec4 b[]; };
layout(std430, binding = 2) writeonly buffer R { vec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 x = a[i];
    vec4 y = b[i];
    r[4u * i + 0u] = x + y;
    r[4u * i + 1u] = x - y * 0.5;
    r[4u * i + 2u] = x * y + vec4(1.0, -2.0, 0.25, 3.0);
    r[4u * i + 3u] = x / y - (-x);
}
