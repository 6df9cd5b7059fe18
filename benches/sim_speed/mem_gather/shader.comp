// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: a memory-heavy kernel for the sim_speed benchmark. Each invocation reads
// sixteen floats of a 4 MiB table at hashed, scattered indices and a coalesced row of four
// vec4s, and writes one vec4: loads dominate, arithmetic is a few adds per load.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer Table { float t[]; };
layout(set = 0, binding = 1, std430) readonly buffer Rows { vec4 r[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Out { vec4 o[]; };

void main() {
    uint id = gl_GlobalInvocationID.x;
    uint n = uint(t.length());
    uint rows = uint(r.length());
    uint h = id * 2654435761u;
    float s = 0.0;
    for (uint k = 0u; k < 16u; k++) {
        h ^= h >> 15;
        h *= 0x2c1b3c6du;
        s += t[h % n];
    }
    vec4 acc = vec4(s);
    for (uint k = 0u; k < 4u; k++) {
        acc += r[(id * 4u + k) % rows];
    }
    o[id] = acc;
}
