// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: exponentials, logarithms, powers and roots from GLSL.std.450.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { vec2 v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { float o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = v[i].x;          // [-8, 8]
    float p = abs(v[i].y) + 1e-3;  // (0, 100]
    uint b = i * 8u;
    o[b + 0u] = exp(x);
    o[b + 1u] = exp2(x * 2.0);
    o[b + 2u] = log(p);
    o[b + 3u] = log2(p);
    o[b + 4u] = pow(p, x * 0.25);
    o[b + 5u] = sqrt(p);
    o[b + 6u] = inversesqrt(p);
    o[b + 7u] = exp(log(p) * 0.5) - sqrt(p);
}
