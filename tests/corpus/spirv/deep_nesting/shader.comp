// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: selections and loops nested 100 deep (generated), as shader fuzzers make them.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer B { uint v[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = v[i];
if ((x & 1u) != 1u) { x = x * 3u + 0u;
if ((x & 2u) != 0u) { x = x * 5u + 1u;
if ((x & 4u) != 0u) { x = x * 7u + 2u;
if ((x & 8u) != 8u) { x = x * 9u + 3u;
if ((x & 16u) != 0u) { x = x * 11u + 4u;
for (uint l5 = 0u; l5 < (x & 1u) + 1u; ++l5) { x += l5 * 5u;
if ((x & 64u) != 64u) { x = x * 15u + 6u;
if ((x & 128u) != 0u) { x = x * 17u + 7u;
if ((x & 256u) != 0u) { x = x * 19u + 8u;
if ((x & 512u) != 512u) { x = x * 21u + 9u;
if ((x & 1024u) != 0u) { x = x * 23u + 10u;
if ((x & 2048u) != 0u) { x = x * 25u + 11u;
if ((x & 4096u) != 4096u) { x = x * 27u + 12u;
if ((x & 8192u) != 0u) { x = x * 29u + 13u;
if ((x & 16384u) != 0u) { x = x * 31u + 14u;
for (uint l15 = 0u; l15 < (x & 1u) + 1u; ++l15) { x += l15 * 15u;
if ((x & 65536u) != 0u) { x = x * 35u + 16u;
if ((x & 131072u) != 0u) { x = x * 37u + 17u;
if ((x & 262144u) != 262144u) { x = x * 39u + 18u;
if ((x & 524288u) != 0u) { x = x * 41u + 19u;
if ((x & 1048576u) != 0u) { x = x * 43u + 20u;
if ((x & 2097152u) != 2097152u) { x = x * 45u + 21u;
if ((x & 4194304u) != 0u) { x = x * 47u + 22u;
if ((x & 8388608u) != 0u) { x = x * 49u + 23u;
if ((x & 16777216u) != 16777216u) { x = x * 51u + 24u;
for (uint l25 = 0u; l25 < (x & 1u) + 1u; ++l25) { x += l25 * 25u;
if ((x & 67108864u) != 0u) { x = x * 55u + 26u;
if ((x & 134217728u) != 134217728u) { x = x * 57u + 27u;
if ((x & 268435456u) != 0u) { x = x * 59u + 28u;
if ((x & 1u) != 0u) { x = x * 61u + 29u;
if ((x & 2u) != 2u) { x = x * 63u + 30u;
if ((x & 4u) != 0u) { x = x * 65u + 31u;
if ((x & 8u) != 0u) { x = x * 67u + 32u;
if ((x & 16u) != 16u) { x = x * 69u + 33u;
if ((x & 32u) != 0u) { x = x * 71u + 34u;
for (uint l35 = 0u; l35 < (x & 1u) + 1u; ++l35) { x += l35 * 35u;
if ((x & 128u) != 128u) { x = x * 75u + 36u;
if ((x & 256u) != 0u) { x = x * 77u + 37u;
if ((x & 512u) != 0u) { x = x * 79u + 38u;
if ((x & 1024u) != 1024u) { x = x * 81u + 39u;
if ((x & 2048u) != 0u) { x = x * 83u + 40u;
if ((x & 4096u) != 0u) { x = x * 85u + 41u;
if ((x & 8192u) != 8192u) { x = x * 87u + 42u;
if ((x & 16384u) != 0u) { x = x * 89u + 43u;
if ((x & 32768u) != 0u) { x = x * 91u + 44u;
for (uint l45 = 0u; l45 < (x & 1u) + 1u; ++l45) { x += l45 * 45u;
if ((x & 131072u) != 0u) { x = x * 95u + 46u;
if ((x & 262144u) != 0u) { x = x * 97u + 47u;
if ((x & 524288u) != 524288u) { x = x * 99u + 48u;
if ((x & 1048576u) != 0u) { x = x * 101u + 49u;
if ((x & 2097152u) != 0u) { x = x * 103u + 50u;
if ((x & 4194304u) != 4194304u) { x = x * 105u + 51u;
if ((x & 8388608u) != 0u) { x = x * 107u + 52u;
if ((x & 16777216u) != 0u) { x = x * 109u + 53u;
if ((x & 33554432u) != 33554432u) { x = x * 111u + 54u;
for (uint l55 = 0u; l55 < (x & 1u) + 1u; ++l55) { x += l55 * 55u;
if ((x & 134217728u) != 0u) { x = x * 115u + 56u;
if ((x & 268435456u) != 268435456u) { x = x * 117u + 57u;
if ((x & 1u) != 0u) { x = x * 119u + 58u;
if ((x & 2u) != 0u) { x = x * 121u + 59u;
if ((x & 4u) != 4u) { x = x * 123u + 60u;
if ((x & 8u) != 0u) { x = x * 125u + 61u;
if ((x & 16u) != 0u) { x = x * 127u + 62u;
if ((x & 32u) != 32u) { x = x * 129u + 63u;
if ((x & 64u) != 0u) { x = x * 131u + 64u;
for (uint l65 = 0u; l65 < (x & 1u) + 1u; ++l65) { x += l65 * 65u;
if ((x & 256u) != 256u) { x = x * 135u + 66u;
if ((x & 512u) != 0u) { x = x * 137u + 67u;
if ((x & 1024u) != 0u) { x = x * 139u + 68u;
if ((x & 2048u) != 2048u) { x = x * 141u + 69u;
if ((x & 4096u) != 0u) { x = x * 143u + 70u;
if ((x & 8192u) != 0u) { x = x * 145u + 71u;
if ((x & 16384u) != 16384u) { x = x * 147u + 72u;
if ((x & 32768u) != 0u) { x = x * 149u + 73u;
if ((x & 65536u) != 0u) { x = x * 151u + 74u;
for (uint l75 = 0u; l75 < (x & 1u) + 1u; ++l75) { x += l75 * 75u;
if ((x & 262144u) != 0u) { x = x * 155u + 76u;
if ((x & 524288u) != 0u) { x = x * 157u + 77u;
if ((x & 1048576u) != 1048576u) { x = x * 159u + 78u;
if ((x & 2097152u) != 0u) { x = x * 161u + 79u;
if ((x & 4194304u) != 0u) { x = x * 163u + 80u;
if ((x & 8388608u) != 8388608u) { x = x * 165u + 81u;
if ((x & 16777216u) != 0u) { x = x * 167u + 82u;
if ((x & 33554432u) != 0u) { x = x * 169u + 83u;
if ((x & 67108864u) != 67108864u) { x = x * 171u + 84u;
for (uint l85 = 0u; l85 < (x & 1u) + 1u; ++l85) { x += l85 * 85u;
if ((x & 268435456u) != 0u) { x = x * 175u + 86u;
if ((x & 1u) != 1u) { x = x * 177u + 87u;
if ((x & 2u) != 0u) { x = x * 179u + 88u;
if ((x & 4u) != 0u) { x = x * 181u + 89u;
if ((x & 8u) != 8u) { x = x * 183u + 90u;
if ((x & 16u) != 0u) { x = x * 185u + 91u;
if ((x & 32u) != 0u) { x = x * 187u + 92u;
if ((x & 64u) != 64u) { x = x * 189u + 93u;
if ((x & 128u) != 0u) { x = x * 191u + 94u;
for (uint l95 = 0u; l95 < (x & 1u) + 1u; ++l95) { x += l95 * 95u;
if ((x & 512u) != 512u) { x = x * 195u + 96u;
if ((x & 1024u) != 0u) { x = x * 197u + 97u;
if ((x & 2048u) != 0u) { x = x * 199u + 98u;
if ((x & 4096u) != 4096u) { x = x * 201u + 99u;
    x ^= 0x55u;
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
    v[i] = x;
}
