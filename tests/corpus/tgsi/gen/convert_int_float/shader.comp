#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): int/uint to float and float to int/uint, both signs, with truncation
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { ivec4 a[]; };
layout(std430, binding = 1) readonly buffer B { vec4 b[]; };
layout(std430, binding = 2) writeonly buffer F { vec4 f[]; };
layout(std430, binding = 3) writeonly buffer I { ivec4 n[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 x = a[i];
    vec4 y = b[i];
    f[2u * i + 0u] = vec4(x);
    f[2u * i + 1u] = vec4(uvec4(x));
    n[2u * i + 0u] = ivec4(y);
    n[2u * i + 1u] = ivec4(uvec4(abs(y)));
}
