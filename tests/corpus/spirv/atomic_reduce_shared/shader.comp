// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: per-workgroup reductions in shared memory with atomics (add, signed min/max,
// unsigned min/max, and, or, xor, compare-exchange), written out by invocation 0 after a
// barrier. Every fold is commutative and associative; the compare-exchange only succeeds for
// the first invocation to reach it and its winner is not recorded, only that one won.
#version 450
layout(local_size_x = 128) in;
layout(set = 0, binding = 0, std430) readonly buffer In { int v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { int o[]; };
shared int sum;
shared int smallest;
shared int largest;
shared uint umin_;
shared uint umax_;
shared uint ands;
shared uint ors;
shared uint xors;
shared uint claimed;
shared uint winners;

void main() {
    uint l = gl_LocalInvocationIndex;
    if (l == 0u) {
        sum = 0;
        smallest = 2147483647;
        largest = -2147483647 - 1;
        umin_ = 0xffffffffu;
        umax_ = 0u;
        ands = 0xffffffffu;
        ors = 0u;
        xors = 0u;
        claimed = 0u;
        winners = 0u;
    }
    barrier();
    int x = v[gl_GlobalInvocationID.x];
    atomicAdd(sum, x);
    atomicMin(smallest, x);
    atomicMax(largest, x);
    atomicMin(umin_, uint(x));
    atomicMax(umax_, uint(x));
    atomicAnd(ands, uint(x) | 0x33333333u);
    atomicOr(ors, uint(x) & 0x11111111u);
    atomicXor(xors, uint(x));
    if (atomicCompSwap(claimed, 0u, l + 1u) == 0u) {
        atomicAdd(winners, 1u);
    }
    barrier();
    if (l == 0u) {
        uint base = gl_WorkGroupID.x * 10u;
        o[base + 0u] = sum;
        o[base + 1u] = smallest;
        o[base + 2u] = largest;
        o[base + 3u] = int(umin_);
        o[base + 4u] = int(umax_);
        o[base + 5u] = int(ands);
        o[base + 6u] = int(ors);
        o[base + 7u] = int(xors);
        o[base + 8u] = int(winners);
        o[base + 9u] = claimed != 0u ? 1 : 0;
    }
}
