// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: frexp, ldexp, modf, fract, trunc, roundEven, sign, mod, step and smoothstep.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { vec2 v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { float r[]; };
layout(set = 0, binding = 2, std430) writeonly buffer OutI { int e[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec2 a = v[i];
    int ex;
    float m = frexp(a.x, ex);
    uint b = i * 8u;
    r[b + 0u] = m;
    e[i * 2u] = ex;
    int k = int(a.y * 10.0);
    r[b + 1u] = ldexp(a.x, k);
    float ip;
    r[b + 2u] = modf(a.x, ip);
    r[b + 3u] = ip;
    r[b + 4u] = fract(a.y * 3.7) + trunc(a.x * 0.01);
    r[b + 5u] = roundEven(a.y * 4.0) + round(a.x) * 0.0 + sign(a.y);
    r[b + 6u] = fma(a.x, 0.5, a.y);
    r[b + 7u] = mod(a.x, a.y) + step(0.25, a.y) + smoothstep(-1.0, 1.0, a.y);
    e[i * 2u + 1u] = int(floor(a.x)) ^ int(ceil(a.y * 100.0));
}
