// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: a bitonic sort of 128 float keys per workgroup in shared memory: nested loops,
// data-dependent swaps and a barrier in every step.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer Data { float keys[]; };
shared float s[128];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * 128u;
    s[l] = keys[base + l];
    s[l + 64u] = keys[base + l + 64u];
    barrier();
    for (uint size = 2u; size <= 128u; size <<= 1) {
        for (uint stride = size >> 1; stride > 0u; stride >>= 1) {
            // Each invocation compares one pair.
            uint pos = 2u * l - (l & (stride - 1u));
            bool ascending = (pos & size) == 0u;
            float a = s[pos];
            float b = s[pos + stride];
            if ((a > b) == ascending) {
                s[pos] = b;
                s[pos + stride] = a;
            }
            barrier();
        }
    }
    keys[base + l] = s[l];
    keys[base + l + 64u] = s[l + 64u];
}
