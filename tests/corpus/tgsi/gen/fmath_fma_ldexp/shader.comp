#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
#extension GL_ARB_gpu_shader5 : require
// agxc TGSI corpus (MIT OR Apache-2.0): fma, ldexp, frexp, modf (GL_ARB_gpu_shader5)
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { vec4 a[]; };
layout(std430, binding = 1) writeonly buffer R { vec4 r[]; };
layout(std430, binding = 2) writeonly buffer E { ivec4 e[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 x = a[i];
    ivec4 k = ivec4(-3, 0, 5, 12);
    vec4 whole;
    ivec4 ex;
    r[4u * i + 0u] = fma(x, x.yzwx, vec4(-1.0));
    r[4u * i + 1u] = ldexp(x, k);
    r[4u * i + 2u] = frexp(x, ex);
    r[4u * i + 3u] = modf(x, whole) + whole * 0.0625;
    e[i] = ex;
}
