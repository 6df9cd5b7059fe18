// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: an inclusive prefix sum (Hillis-Steele) of 256 integers per workgroup in
// shared memory, double-buffered, with a barrier per step.
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0, std430) buffer Data { uint d[]; };
shared uint buf[2][256];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * 256u;
    uint cur = 0u;
    buf[0][l] = d[base + l];
    barrier();
    for (uint off = 1u; off < 256u; off <<= 1) {
        uint v = buf[cur][l];
        if (l >= off) v += buf[cur][l - off];
        buf[1u - cur][l] = v;
        cur = 1u - cur;
        barrier();
    }
    d[base + l] = buf[cur][l];
}
