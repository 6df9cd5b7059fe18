// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: OpArrayLength on runtime arrays behind a fixed header, used as a loop bound
// and for wrap-around indexing.
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0, std430) readonly buffer Samples { vec4 header; float samples[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { float results[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Count { uint count; };

void main() {
    uint n = uint(samples.length());
    uint i = gl_GlobalInvocationID.x;
    // A moving window sum of 7 samples around i, wrapping at the end of the runtime array.
    float acc = 0.0;
    for (uint k = 0u; k < 7u; ++k) {
        acc += samples[(i * 5u + k) % n];
    }
    if (i < uint(results.length())) {
        results[i] = acc * header.x + header.y;
    }
    if (i == 0u) {
        count = n * 1000u + uint(results.length());
    }
}
