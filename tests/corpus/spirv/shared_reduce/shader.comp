// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: a tree reduction (sum and max) in workgroup shared memory with barriers; one
// result per workgroup. The summation order is fixed by the tree, so results are exact.
#version 450
layout(local_size_x = 128) in;
layout(set = 0, binding = 0, std430) readonly buffer In { float v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { vec2 o[]; };
shared float sums[128];
shared float peaks[128];

void main() {
    uint l = gl_LocalInvocationID.x;
    float x = v[gl_GlobalInvocationID.x];
    sums[l] = x;
    peaks[l] = x;
    barrier();
    for (uint stride = 64u; stride > 0u; stride >>= 1) {
        if (l < stride) {
            sums[l] += sums[l + stride];
            peaks[l] = max(peaks[l], peaks[l + stride]);
        }
        barrier();
    }
    if (l == 0u) {
        o[gl_WorkGroupID.x] = vec2(sums[0], peaks[0]);
    }
}
