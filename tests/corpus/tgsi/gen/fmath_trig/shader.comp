#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): sin, cos, tan, asin, acos, atan, atan(y, x)
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer A { vec2 a[]; };
layout(std430, binding = 1) writeonly buffer R { float r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec2 v = a[i];
    float s = clamp(v.x * 0.3, -1.0, 1.0);
    r[8u * i + 0u] = sin(v.x);
    r[8u * i + 1u] = cos(v.y);
    r[8u * i + 2u] = tan(v.x * 0.4);
    r[8u * i + 3u] = asin(s);
    r[8u * i + 4u] = acos(s);
    r[8u * i + 5u] = atan(v.y);
    r[8u * i + 6u] = atan(v.y, v.x);
    r[8u * i + 7u] = sin(v.x) * cos(v.x);
}
