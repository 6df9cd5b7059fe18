// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: ordered and unordered comparisons, isnan and isinf on NaN, infinities, zeros and denormals.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { vec2 v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec2 a = v[i];
    uint bits = 0u;
    bits |= uint(a.x < a.y) << 0;
    bits |= uint(a.x <= a.y) << 1;
    bits |= uint(a.x > a.y) << 2;
    bits |= uint(a.x >= a.y) << 3;
    bits |= uint(a.x == a.y) << 4;
    bits |= uint(a.x != a.y) << 5;
    bits |= uint(!(a.x < a.y)) << 6;
    bits |= uint(isnan(a.x)) << 7;
    bits |= uint(isinf(a.y)) << 8;
    bits |= uint(a.x < 0.0) << 9;
    bits |= uint(-a.x == 0.0) << 10;
    bits |= uint(abs(a.y) > 1e30) << 11;
    bits |= uint(sign(a.x) > 0.0) << 12;
    bits |= uint(floatBitsToInt(a.x) < 0) << 13;
    r[i * 2u] = bits;
    r[i * 2u + 1u] = floatBitsToUint(a.x < a.y ? a.x : a.y) ^ (isnan(a.y) ? 1u : 0u);
}
