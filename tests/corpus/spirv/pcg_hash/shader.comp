// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: integer hashing (PCG-style output permutation, xorshift, murmur finaliser) with
// wrapping multiplies, and a float built from hash bits; typical of procedural shaders.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) writeonly buffer Out { uvec4 o[]; };
layout(push_constant) uniform P { uint seed; } pc;

uint pcg(uint v) {
    uint state = v * 747796405u + 2891336453u;
    uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

uint xorshift(uint x) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
}

uint murmur(uint h) {
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

void main() {
    uint i = gl_GlobalInvocationID.x ^ pc.seed;
    uint a = pcg(i);
    uint b = xorshift(a | 1u);
    uint c = murmur(a + b);
    float f = uintBitsToFloat((c >> 9) | 0x3f800000u) - 1.0;   // [0, 1)
    o[gl_GlobalInvocationID.x] = uvec4(a, b, c, floatBitsToUint(f * 2.0 - 1.0));
}
