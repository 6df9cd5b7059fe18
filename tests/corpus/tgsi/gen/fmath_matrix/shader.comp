#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): mat4 * vec4, matrix * matrix, transpose, determinant, inverse from a uniform block
layout(local_size_x = 16) in;
layout(std140, binding = 1) uniform M { mat4 m; mat3 n; vec4 bias; };
layout(std430, binding = 0) readonly buffer A { vec4 a[]; };
layout(std430, binding = 2) writeonly buffer R { vec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = a[i];
    mat4 t = transpose(m);
    r[4u * i + 0u] = m * v + bias;
    r[4u * i + 1u] = v * m;
    r[4u * i + 2u] = (m * t) * v * 0.01;
    r[4u * i + 3u] = vec4(inverse(n) * v.xyz, determinant(n));
}
