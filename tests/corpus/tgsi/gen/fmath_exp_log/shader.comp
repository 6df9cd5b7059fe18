#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): exp, exp2, log, log2, pow, sqrt, inversesqrt
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) writeonly buffer R { float r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    float p = abs(x) + 0.125;
    r[8u * i + 0u] = exp(x * 0.25);
    r[8u * i + 1u] = exp2(x * 0.5);
    r[8u * i + 2u] = log(p);
    r[8u * i + 3u] = log2(p);
    r[8u * i + 4u] = pow(p, 1.5);
    r[8u * i + 5u] = sqrt(p);
    r[8u * i + 6u] = inversesqrt(p);
    r[8u * i + 7u] = pow(p, -0.75) + exp2(-p);
}
