// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: 16-bit integer arithmetic (GL_EXT_shader_explicit_arithmetic_types_int16):
// wrapping add/multiply, shifts, signed division and conversions to and from 32 bits.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { ivec2 v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { ivec4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    int16_t a = int16_t(v[i].x);             // truncates to the low 16 bits
    int16_t b = int16_t(v[i].y);
    uint16_t ua = uint16_t(a);
    uint16_t ub = uint16_t(b);
    int16_t d = b == int16_t(0) ? int16_t(3) : b;
    int16_t q = (a == int16_t(-32768) && d == int16_t(-1)) ? int16_t(0) : a / d;
    o[i] = ivec4(int(a * b + int16_t(1000)), int(uint(ua * ub) | (uint(ua >> uint16_t(3)) << 16)),
                 int(q), int(int16_t(a << int16_t(5)) >> int16_t(2)));
}
