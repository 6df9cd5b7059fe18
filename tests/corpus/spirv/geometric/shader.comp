// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: the geometric functions of GLSL.std.450 on random 3-vectors.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { vec4 a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { vec4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec3 p = a[2u * i].xyz;
    vec3 q = a[2u * i + 1u].xyz;
    vec3 n = normalize(q);
    float eta = 0.5 + a[2u * i].w * 0.1;
    o[i * 4u + 0u] = vec4(length(p), distance(p, q), dot(p, q), length(n));
    o[i * 4u + 1u] = vec4(cross(p, q), dot(cross(p, q), p));
    o[i * 4u + 2u] = vec4(reflect(p, n), eta);
    o[i * 4u + 3u] = vec4(refract(normalize(p), n, eta) + faceforward(n, p, q), 0.0);
}
