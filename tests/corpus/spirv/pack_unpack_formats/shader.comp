// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: packHalf2x16, packUnorm/Snorm 4x8 and 2x16 and their unpacks on random floats.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { vec4 v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 a = v[i];
    uint b = i * 8u;
    r[b + 0u] = packHalf2x16(a.xy);
    r[b + 1u] = packUnorm4x8(a);
    r[b + 2u] = packSnorm4x8(a);
    r[b + 3u] = packUnorm2x16(a.zw);
    r[b + 4u] = packSnorm2x16(a.yz);
    // Masked to finite halves: NaN signs and payloads differ between implementations.
    vec2 h = unpackHalf2x16(floatBitsToUint(a.x) & 0xbbffbbffu);
    r[b + 5u] = packHalf2x16(h * 0.5);
    vec4 u = unpackUnorm4x8(floatBitsToUint(a.y) ^ 0x5a5a5a5au);
    r[b + 6u] = floatBitsToUint(u.x + u.y * 2.0 + u.z * 4.0 + u.w * 8.0);
    vec4 s = unpackSnorm4x8(floatBitsToUint(a.z));
    vec2 s2 = unpackSnorm2x16(floatBitsToUint(a.w));
    r[b + 7u] = floatBitsToUint(s.x - s.y + s.z * s.w + s2.x * 3.0 - s2.y);
}
