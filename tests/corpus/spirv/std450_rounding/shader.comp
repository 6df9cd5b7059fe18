// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: rounding, modulo, min/max/clamp, mix/step/smoothstep, fma, frexp/ldexp and
// modf from GLSL.std.450; all exactly specified except smoothstep and mix.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { vec4 v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { vec4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 x = v[i];
    vec4 y = x.yzwx * 0.37 + 0.5;
    vec4 whole;
    vec4 frac = modf(x, whole);
    ivec4 e;
    vec4 m = frexp(x, e);
    o[i * 6u + 0u] = vec4(floor(x.x), ceil(x.y), round(x.z * 0.5), roundEven(x.w * 0.5));
    o[i * 6u + 1u] = vec4(trunc(x.x), fract(x.y), mod(x.z, y.w), sign(x.w));
    o[i * 6u + 2u] = min(x, y) + max(x, -y) + clamp(x, -1.5, 2.5);
    o[i * 6u + 3u] = mix(x, y, 0.25) + step(y, x) + smoothstep(-2.0, 3.0, x);
    o[i * 6u + 4u] = fma(x, y, vec4(1.0)) + abs(frac) + whole;
    o[i * 6u + 5u] = m + ldexp(vec4(1.0), e) + vec4(roundEven(vec2(2.5, -3.5)), round(1.25), floor(-0.5));
}
