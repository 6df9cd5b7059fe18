// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: signed and unsigned division, remainder and modulo, extended multiply and
// add-with-carry, min/max/clamp/abs/sign on random integers. Divisors are never zero and
// INT_MIN / -1 never occurs (both undefined in SPIR-V). `%` gets non-negative operands: GLSL
// leaves its result undefined when either is negative (|a| <= 2e9, so abs cannot overflow).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { ivec4 v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { ivec4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 x = v[i];
    int a = x.x;
    int d = x.y == 0 ? 7 : x.y;
    uint ua = uint(x.z);
    uint ud = uint(x.w) | 1u;
    uint hi, lo;
    umulExtended(ua, ud, hi, lo);
    int shi, slo;
    imulExtended(a, x.w, shi, slo);
    uint carry, borrow;
    uint sum = uaddCarry(ua, ud, carry);
    uint diff = usubBorrow(ud, ua, borrow);
    o[i * 4u + 0u] = ivec4(a / d, abs(a) % abs(d), int(ua / ud), int(ua % ud));
    o[i * 4u + 1u] = ivec4(int(hi), int(lo), shi, slo);
    o[i * 4u + 2u] = ivec4(int(sum), int(carry), int(diff), int(borrow));
    o[i * 4u + 3u] = ivec4(min(a, d), max(a, d) + clamp(x.z, -500, 500), abs(a) - sign(d), int(min(ua, ud) ^ max(ua, ud)));
}
