#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): functions with in, out and inout parameters and early returns
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { vec4 a[]; };
layout(std430, binding = 1) writeonly buffer R { vec4 r[]; };

float saturate_or_zero(float x) {
    if (x < 0.0) {
        return 0.0;
    }
    return min(x, 1.0);
}

void split(in vec4 v, out vec2 lo, out vec2 hi) {
    lo = v.xy;
    hi = v.zw;
}

void accumulate(inout vec2 acc, vec2 v, float w) {
    acc += v * w;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec2 lo;
    vec2 hi;
    split(a[i], lo, hi);
    vec2 acc = vec2(0.0);
    accumulate(acc, lo, saturate_or_zero(hi.x));
    accumulate(acc, hi, saturate_or_zero(lo.y));
    r[i] = vec4(acc, lo.x * hi.y, saturate_or_zero(lo.x + hi.x));
}
