// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: specialization constants (scalar, boolean and workgroup size) used with their
// default values, including in spec-constant operations and array sizes.
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const int GROUP = 32;
layout(constant_id = 1) const float SCALE = 2.5;
layout(constant_id = 2) const bool NEGATE = true;
layout(constant_id = 3) const int TAPS = 3;
const int WINDOW = TAPS * 2 + 1;       // a spec-constant operation
layout(set = 0, binding = 0, std430) readonly buffer In { float v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { float o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float w[WINDOW];
    for (int k = 0; k < WINDOW; ++k) w[k] = float(k + 1);
    float acc = 0.0;
    for (int k = 0; k < WINDOW; ++k) {
        acc += w[k] * v[(int(i) + k) % (GROUP * 4)];
    }
    acc *= SCALE;
    o[i] = NEGATE ? -acc : acc;
}
