// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: integer bit operations on random 32-bit words, eight results per element.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uvec2 words[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint a = words[i].x;
    uint b = words[i].y;
    int sa = int(a);
    // Offsets and widths come from the data but are kept in range: offset + bits <= 32.
    int off = int(b & 15u);
    int bits = int((b >> 4) & 15u) + 1;
    uint base = i * 12u;
    r[base + 0u] = bitfieldExtract(a, off, bits);
    r[base + 1u] = uint(bitfieldExtract(sa, off, bits));
    r[base + 2u] = bitfieldInsert(a, b, off, bits);
    r[base + 3u] = uint(bitCount(a)) | (uint(bitCount(sa ^ int(b))) << 8);
    r[base + 4u] = uint(findLSB(a)) ^ (uint(findMSB(a)) << 8) ^ (uint(findMSB(sa)) << 16);
    r[base + 5u] = bitfieldReverse(a);
    r[base + 6u] = (a << (b & 31u)) | (a >> ((32u - (b & 31u)) & 31u));
    r[base + 7u] = uint(sa >> int(b & 31u));
    r[base + 8u] = (a >> (b & 31u)) ^ ~b;
    r[base + 9u] = (a & b) | (~a & (b >> 3));
    r[base + 10u] = uint(findLSB(0u)) ^ uint(findMSB(-1)) ^ uint(findMSB(0));
    r[base + 11u] = uint(-sa) + (a * b);
}
