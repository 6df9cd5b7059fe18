// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: y = a*x + y with the scalar from push constants, one invocation per element.
#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { float a; uint n; } params;
layout(set = 0, binding = 0, std430) readonly buffer X { float x[]; };
layout(set = 0, binding = 1, std430) buffer Y { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= params.n) return;
    y[i] = params.a * x[i] + y[i];
}
