#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): NaN, infinities, signed zeros and denormals through add, mul, min, max, isnan, isinf
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) writeonly buffer R { float r[]; };
layout(std430, binding = 2) writeonly buffer F { uint f[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    float y = a[(i + 1u) % 256u];
    r[4u * i + 0u] = x + y;
    r[4u * i + 1u] = x * y;
    r[4u * i + 2u] = -x;
    r[4u * i + 3u] = abs(x) * 0.5;
    f[i] = uint(isnan(x)) | (uint(isinf(x)) << 1) | (uint(x < y) << 2) | (uint(x == y) << 3);
}
