// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: constant tables read at dynamic indices (a 64-entry vec2 disk in a loop, an
// int table with an out-of-loop index, a bool table), which agxc reads from the shader's
// constant data; and a small table that stays in registers.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { vec2 v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { vec4 o[]; };
layout(set = 0, binding = 2, std430) writeonly buffer OutI { int r[]; };
const vec2 disk[64] = vec2[64](vec2(0.281250, -0.406250), vec2(0.578125, -0.812500), vec2(-0.718750, -0.625000), vec2(0.453125, -0.781250), vec2(-0.156250, -0.859375), vec2(-0.656250, 0.734375), vec2(0.671875, -0.734375), vec2(-0.046875, -0.640625), vec2(0.687500, -0.765625), vec2(-0.515625, -0.109375), vec2(-0.765625, 0.578125), vec2(-0.812500, -0.125000), vec2(-0.828125, -0.468750), vec2(0.156250, 0.671875), vec2(-0.437500, -0.531250), vec2(0.218750, -0.281250), vec2(-0.593750, -0.250000), vec2(0.484375, -0.625000), vec2(-0.750000, -0.765625), vec2(-0.187500, 0.984375), vec2(0.703125, 0.250000), vec2(0.859375, 0.812500), vec2(0.437500, 0.187500), vec2(-0.015625, -0.281250), vec2(-0.031250, -0.687500), vec2(0.187500, 0.968750), vec2(0.359375, 0.781250), vec2(0.140625, -0.718750), vec2(-0.531250, 0.671875), vec2(-0.343750, 0.359375), vec2(-0.406250, 0.953125), vec2(0.671875, -0.843750), vec2(-0.703125, 0.250000), vec2(0.359375, 0.390625), vec2(0.984375, 0.812500), vec2(-0.734375, -0.640625), vec2(0.078125, 0.890625), vec2(-0.750000, -0.765625), vec2(0.234375, 0.781250), vec2(0.125000, 0.531250), vec2(0.375000, -0.921875), vec2(0.843750, 0.406250), vec2(-0.328125, -0.546875), vec2(0.968750, -0.765625), vec2(-0.140625, 0.140625), vec2(-0.484375, -0.015625), vec2(0.578125, 0.562500), vec2(0.984375, -0.687500), vec2(-0.343750, 0.781250), vec2(0.593750, 0.109375), vec2(-0.453125, 0.718750), vec2(0.109375, 0.656250), vec2(0.421875, 0.515625), vec2(-0.078125, -0.406250), vec2(-0.671875, -0.296875), vec2(-0.406250, -0.078125), vec2(-0.078125, -0.953125), vec2(0.937500, -0.281250), vec2(0.046875, 0.125000), vec2(-0.984375, -0.421875), vec2(0.671875, 0.468750), vec2(0.265625, -0.500000), vec2(-0.796875, 0.812500), vec2(0.562500, 0.578125));
const int ints[24] = int[24](-183, -193, -788, -14, 299, -180, -873, -610, -863, -573, -98, -668, -775, -304, 230, -893, -791, -1000, 160, -691, 98, -793, 943, -256);
const bool flags[20] = bool[20](true, false, false, true, true, true, false, true, false, false,
                                true, true, false, true, false, false, false, true, true, false);
const float small[4] = float[4](0.5, -1.0, 2.0, 0.25);
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec2 p = v[i];
    float s = 0.0;
    vec2 acc = vec2(0.0);
    for (int k = 0; k < 16; ++k) {
        vec2 q = disk[(int(i) * 7 + k * 5) & 63];
        s += dot(p, q);
        acc += q * small[k & 3];
    }
    o[i] = vec4(s, disk[i & 63u].y, acc);
    int j = int(i % 24u);
    r[i * 2u] = ints[j] + ints[(j * 5 + 3) % 24];
    r[i * 2u + 1u] = flags[i % 20u] ? ints[23 - j] : -1;
}
