#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): min, max, clamp, mix, step, smoothstep
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { vec4 a[]; };
layout(std430, binding = 1) writeonly buffer R { vec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 x = a[i];
    vec4 y = x.wzyx;
    r[6u * i + 0u] = min(x, y);
    r[6u * i + 1u] = max(x, 0.25);
    r[6u * i + 2u] = clamp(x, vec4(-0.5), vec4(0.5, 0.75, 1.0, 2.0));
    r[6u * i + 3u] = mix(x, y, vec4(0.0, 0.25, 0.5, 1.0));
    r[6u * i + 4u] = step(vec4(0.1), x);
    r[6u * i + 5u] = smoothstep(-1.0, 1.0, x);
}
