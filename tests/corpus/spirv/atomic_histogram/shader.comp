// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: a 16-bin histogram in a storage buffer with atomicAdd, plus min/max/and/or/xor
// reductions over the whole grid with storage-buffer atomics. Every result is a commutative,
// associative fold, so it does not depend on the order the invocations run in.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1, std430) buffer Out {
    uint bins[16];
    int smallest;
    int largest;
    uint umin_;
    uint umax_;
    uint ands;
    uint ors;
    uint xors;
    uint count;
};

void main() {
    uint x = v[gl_GlobalInvocationID.x];
    atomicAdd(bins[x & 15u], 1u);
    atomicMin(smallest, int(x));
    atomicMax(largest, int(x));
    atomicMin(umin_, x);
    atomicMax(umax_, x);
    atomicAnd(ands, x | 0x0f0f0f0fu);
    atomicOr(ors, x & 0x00ff00ffu);
    atomicXor(xors, x);
    atomicExchange(count, 7u);
}
