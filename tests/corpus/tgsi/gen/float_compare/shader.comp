#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): float <, <=, >, >=, ==, != including NaN (ordered and unordered)
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { vec2 a[]; };
layout(std430, binding = 1) writeonly buffer R { uint r[]; };
layout(std430, binding = 2) writeonly buffer S { float s[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i].x;
    float y = a[i].y;
    uint m = 0u;
    m |= uint(x < y) << 0;
    m |= uint(x <= y) << 1;
    m |= uint(x > y) << 2;
    m |= uint(x >= y) << 3;
    m |= uint(x == y) << 4;
    m |= uint(x != y) << 5;
    m |= uint(!(x < y)) << 6;
    m |= uint(x < 0.0) << 7;
    r[i] = m;
    s[i] = x >= y ? x : y * 2.0;
}
