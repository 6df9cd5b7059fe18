// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: stream compaction by atomicAdd slot allocation. Invocations whose input is
// even take a slot from a storage-buffer counter and a slot from a shared counter, and mark
// both slots with a flag. Which invocation gets which slot depends on the order they run in,
// but the counts, the set of marked slots, and the sums of the kept values do not: the outputs
// are order-independent.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1, std430) buffer Out {
    uint count;
    uint sum;
    uint local_sums[4];
    uint marks[256];
};
shared uint local_count;
shared uint local_marks[64];

void main() {
    uint l = gl_LocalInvocationIndex;
    local_marks[l] = 0u;
    if (l == 0u) {
        local_count = 0u;
    }
    barrier();
    uint x = v[gl_GlobalInvocationID.x];
    if ((x & 1u) == 0u) {
        uint slot = atomicAdd(count, 1u);
        atomicExchange(marks[slot], 1u);
        atomicAdd(sum, x);
        uint local_slot = atomicAdd(local_count, 1u);
        local_marks[local_slot] = x;
    }
    barrier();
    if (l == 0u) {
        uint s = 0u;
        for (uint i = 0u; i < local_count; i++) {
            s += local_marks[i];
        }
        local_sums[gl_WorkGroupID.x] = s;
    }
}
