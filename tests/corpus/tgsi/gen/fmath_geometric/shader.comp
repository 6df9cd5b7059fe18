#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): dot, length, distance, normalize, cross, reflect, refract, faceforward
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer A { vec4 a[]; };
layout(std430, binding = 1) readonly buffer B { vec4 b[]; };
layout(std430, binding = 2) writeonly buffer R { vec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 p = a[i];
    vec4 q = b[i];
    vec3 n = normalize(q.xyz);
    r[5u * i + 0u] = vec4(dot(p, q), length(p), distance(p.xy, q.xy), dot(p.xyz, q.xyz));
    r[5u * i + 1u] = vec4(normalize(p.xyz), length(n));
    r[5u * i + 2u] = vec4(cross(p.xyz, q.xyz), 0.0);
    r[5u * i + 3u] = vec4(reflect(p.xyz, n), 1.0);
    r[5u * i + 4u] = vec4(refract(normalize(p.xyz), n, 0.66) + faceforward(n, p.xyz, q.xyz), 0.0);
}
