// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: the GLSL.std.450 trigonometric and hyperbolic functions, each on an input range
// where it is defined and well conditioned.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { vec2 v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { float o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = v[i].x;          // [-pi, pi]
    float y = v[i].y;          // [-pi, pi]
    float u = x / 3.1415927;   // [-1, 1]
    uint b = i * 16u;
    o[b + 0u] = sin(x);
    o[b + 1u] = cos(x);
    o[b + 2u] = tan(x * 0.45);
    o[b + 3u] = asin(u * 0.999);
    o[b + 4u] = acos(u * 0.999);
    o[b + 5u] = atan(u * 20.0);
    o[b + 6u] = atan(y, x);
    o[b + 7u] = sinh(u * 3.0);
    o[b + 8u] = cosh(u * 3.0);
    o[b + 9u] = tanh(u * 3.0);
    o[b + 10u] = asinh(x * 4.0);
    o[b + 11u] = acosh(1.0 + abs(y) * 4.0);
    o[b + 12u] = atanh(u * 0.99);
    o[b + 13u] = radians(x * 57.0);
    o[b + 14u] = degrees(y);
    o[b + 15u] = sin(x) * sin(x) + cos(x) * cos(x);
}
