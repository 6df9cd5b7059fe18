// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: do-while with continue, nested loops leaving by a flag, a switch with fall-through and continue inside a loop, an early return from a loop in a function.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; };

uint collatz(uint x) {
    uint n = 0u;
    while (x != 1u) {
        if (n > 200u) return 9999u;
        x = (x & 1u) != 0u ? 3u * x + 1u : x >> 1;
        n++;
    }
    return n;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = v[i];
    uint acc = 0u;
    uint k = 0u;
    do {
        k++;
        if ((k & 3u) == 1u) continue;
        acc += k * (x & 7u);
        if (acc > 50u + (x & 31u)) break;
    } while (k < 20u);
    uint found = 0u;
    for (uint a = 0u; a < 6u; ++a) {
        bool stop = false;
        for (uint b = 0u; b < 6u; ++b) {
            if (((x >> (a + b)) & 3u) == 3u) { found += a * 8u + b; stop = true; break; }
            if (b == (x & 5u)) continue;
            found ^= b;
        }
        if (stop && (x & 64u) != 0u) break;
    }
    uint s = 0u;
    for (uint t = 0u; t < 10u; ++t) {
        switch ((x + t) % 5u) {
        case 0u: s += 1u; continue;
        case 1u: s *= 3u;
        case 2u: s += t; break;
        case 3u: if (t > 6u) { t += 1u; break; } s ^= 0x55u; break;
        default: s -= 1u;
        }
        s += 100u;
    }
    uint b = i * 4u;
    r[b + 0u] = acc | (k << 16);
    r[b + 1u] = found;
    r[b + 2u] = s;
    r[b + 3u] = collatz((x & 1023u) + 1u);
}
