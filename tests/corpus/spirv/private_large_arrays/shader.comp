// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: large local arrays written at dynamic indices (a histogram, an explicit
// stack, an array of structures with vector members, matrices indexed by column, a callee's
// array inlined twice), which the compiler keeps in private memory rather than registers.
#version 450
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint o[]; };

struct Item { vec3 p; int id; };

// A callee with its own large array: called twice, each call has its own.
float windowed_sum(uint base, uint n) {
    float w[80];
    for (uint k = 0u; k < 80u; ++k) w[k] = float(v[(base + k) & 1023u] & 255u);
    float s = 0.0;
    for (uint k = 0u; k < n; ++k) s += w[(k * 7u) % 80u];
    return s;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint seed = v[i];

    // Histogram of 200 input bytes into 100 bins (dynamic read-modify-write).
    uint hist[100];
    for (int b = 0; b < 100; ++b) hist[b] = 0u;
    for (uint k = 0u; k < 200u; ++k) {
        uint x = v[(i * 13u + k) & 1023u];
        hist[x % 100u] += 1u + (x >> 28);
    }
    // Prefix sums in place.
    for (int b = 1; b < 100; ++b) hist[b] += hist[b - 1];

    // An explicit stack: push 70 values, pop a data-dependent number.
    int stk[96];
    int sp = 0;
    for (uint k = 0u; k < 70u; ++k) stk[sp++] = int(v[(i + k * 5u) & 1023u] >> 8);
    int popped = 0;
    for (uint k = 0u; k < (seed & 63u); ++k) popped ^= stk[--sp];

    // Structures with vector members, written and read at dynamic indices and components.
    Item items[40];
    for (int k = 0; k < 40; ++k) {
        items[k].p = vec3(float(k), float(k * 2), float(v[(i + uint(k)) & 1023u] & 1023u));
        items[k].id = 40 - k;
    }
    for (uint k = 0u; k < 25u; ++k) {
        uint a = v[(i * 3u + k) & 1023u];
        items[a % 40u].p[a % 3u] += 0.5;
        items[(a >> 8) % 40u].id += int(a & 7u);
    }

    // Matrices indexed by column at run time.
    mat4 ms[20];
    for (int k = 0; k < 20; ++k) ms[k] = mat4(float(k + 1));
    for (uint k = 0u; k < 10u; ++k) {
        uint a = v[(i * 7u + k) & 1023u];
        ms[a % 20u][(a >> 5) & 3u] += vec4(1.0, 2.0, 3.0, 4.0);
    }

    uint out_base = i * 16u;
    o[out_base + 0u] = hist[seed % 100u];
    o[out_base + 1u] = hist[99];
    o[out_base + 2u] = uint(popped);
    o[out_base + 3u] = uint(sp);
    Item it = items[seed % 40u];
    o[out_base + 4u] = floatBitsToUint(it.p.x + it.p.y + it.p.z);
    o[out_base + 5u] = uint(it.id);
    o[out_base + 6u] = floatBitsToUint(items[(seed >> 3) % 40u].p[(seed >> 9) % 3u]);
    mat4 m = ms[(seed >> 4) % 20u];
    o[out_base + 7u] = floatBitsToUint(m[0][0] + m[1][1] + m[2][2] + m[3][3] + m[1][0]);
    o[out_base + 8u] = floatBitsToUint(ms[seed % 20u][(seed >> 2) & 3u][(seed >> 6) & 3u]);
    o[out_base + 9u] = floatBitsToUint(windowed_sum(i * 17u, 33u + (seed & 15u)));
    o[out_base + 10u] = floatBitsToUint(windowed_sum(i * 29u + 5u, 70u));
    uint acc = 0u;
    for (int b = 0; b < 100; b += 9) acc = acc * 31u + hist[b];
    o[out_base + 11u] = acc;
    for (uint k = 12u; k < 16u; ++k) o[out_base + k] = hist[(seed + k * 11u) % 100u] ^ uint(stk[k]);
}
