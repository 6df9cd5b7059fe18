// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: uaddCarry, usubBorrow, umulExtended and imulExtended on full-range words, scalar and vector.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uvec2 v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec2 a = v[i];
    uint b = i * 10u;
    uint c;
    r[b + 0u] = uaddCarry(a.x, a.y, c);
    r[b + 1u] = c;
    r[b + 2u] = usubBorrow(a.x, a.y, c);
    r[b + 3u] = c;
    uint hi, lo;
    umulExtended(a.x, a.y, hi, lo);
    r[b + 4u] = hi;
    r[b + 5u] = lo;
    int shi, slo;
    imulExtended(int(a.x), int(a.y), shi, slo);
    r[b + 6u] = uint(shi);
    r[b + 7u] = uint(slo);
    uvec2 av = uvec2(a.x, a.y ^ 0xffffu);
    uvec2 cv;
    uvec2 sv = uaddCarry(av, uvec2(a.y, a.x), cv);
    r[b + 8u] = sv.x ^ sv.y ^ (cv.x << 1) ^ (cv.y << 2);
    r[b + 9u] = (a.x >> 16) * (a.y & 0xffffu) + (a.x & 0xffffu);
}
