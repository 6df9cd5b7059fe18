// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: 16-bit float arithmetic (GL_EXT_shader_explicit_arithmetic_types_float16) on
// values converted from 32-bit inputs, with 16-bit storage for an intermediate buffer.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { vec4 v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Half { f16vec4 h[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Out { vec4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    f16vec4 x = f16vec4(v[i]);
    f16vec4 y = x.wzyx;
    f16vec4 r = x * y + float16_t(0.5);
    f16vec4 s = abs(x - y) / (abs(y) + float16_t(1.0));
    h[i] = r;
    o[i * 2u] = vec4(r);
    o[i * 2u + 1u] = vec4(s) + vec4(max(x, y)) - vec4(clamp(x, float16_t(-1.0), float16_t(1.0)));
}
