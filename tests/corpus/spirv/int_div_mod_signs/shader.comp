// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: signed and unsigned division and modulo with negative operands and divisors, by data, by push constants and by constants.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { ivec2 v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { int r[]; };
layout(push_constant) uniform P { int d; uint ud; } p;
void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec2 a = v[i];
    int y = a.y == 0 ? 7 : a.y;
    uint b = i * 10u;
    r[b + 0] = a.x / y;
    r[b + 1] = a.x % y;
    r[b + 2] = int(uint(a.x) / uint(y));
    r[b + 3] = int(uint(a.x) % uint(y));
    r[b + 4] = a.x / p.d;
    r[b + 5] = a.x % p.d;
    r[b + 6] = int(uint(a.x) / p.ud) + int(uint(a.x) % p.ud);
    r[b + 7] = a.x / -3 + a.x % -5;
    r[b + 8] = a.x / 16 + a.x % 16 + int(uint(a.x) / 12u);
    ivec2 q = ivec2(a.x, a.x >> 3) / ivec2(y, 5);
    r[b + 9] = q.x ^ q.y;
}
