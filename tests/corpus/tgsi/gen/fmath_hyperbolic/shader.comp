#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): sinh, cosh, tanh, asinh, acosh, atanh
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) writeonly buffer R { float r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    r[6u * i + 0u] = sinh(x);
    r[6u * i + 1u] = cosh(x);
    r[6u * i + 2u] = tanh(x);
    r[6u * i + 3u] = asinh(x * 3.0);
    r[6u * i + 4u] = acosh(abs(x) * 4.0 + 1.0);
    r[6u * i + 5u] = atanh(clamp(x * 0.3, -0.99, 0.99));
}
