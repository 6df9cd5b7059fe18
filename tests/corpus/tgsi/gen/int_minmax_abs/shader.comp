#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): min, max, clamp, abs, sign and negate on int and uint
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { ivec4 a[]; };
layout(std430, binding = 1) writeonly buffer R { ivec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 x = a[i];
    ivec4 y = x.yzwx;
    uvec4 ux = uvec4(x);
    r[5u * i + 0u] = min(x, y);
    r[5u * i + 1u] = max(x, -1000);
    r[5u * i + 2u] = clamp(x, ivec4(-500), ivec4(700));
    r[5u * i + 3u] = abs(x) + sign(y);
    r[5u * i + 4u] = ivec4(min(ux, uvec4(y)) ^ max(ux, 12345u)) - (-x);
}
