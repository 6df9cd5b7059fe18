// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: buffer atomics whose returned values are deterministic (own slots), global reductions, and shared-memory atomics across a barrier.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1, std430) buffer Slots { uint s[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Out { uint r[]; };
layout(set = 0, binding = 3, std430) buffer Sum { uint total; int smin; int smax; uint orv; };
shared uint hist[16];
shared int lmin;
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationID.x;
    uint x = v[i];
    if (l < 16u) hist[l] = 0u;
    if (l == 0u) lmin = 0x7fffffff;
    barrier();
    atomicAdd(hist[x & 15u], 1u);
    atomicMin(lmin, int(x >> 4));
    uint b = i * 8u;
    // Own slots: returned values are deterministic.
    r[b + 0u] = atomicAdd(s[b + 0u], x);
    r[b + 1u] = atomicExchange(s[b + 1u], x ^ 0xabcdu);
    r[b + 2u] = atomicCompSwap(s[b + 2u], 0u, x);
    r[b + 3u] = atomicCompSwap(s[b + 3u], 1u, x);
    r[b + 4u] = atomicAnd(s[b + 4u], x);
    r[b + 5u] = atomicOr(s[b + 5u], x) ^ atomicXor(s[b + 6u], x);
    r[b + 6u] = atomicMax(s[b + 7u], x >> 1);
    atomicAdd(total, x & 0xffu);
    atomicMin(smin, int(x));
    atomicMax(smax, int(x));
    atomicOr(orv, 1u << (x & 31u));
    barrier();
    r[b + 7u] = hist[l & 15u] + uint(lmin);
}
