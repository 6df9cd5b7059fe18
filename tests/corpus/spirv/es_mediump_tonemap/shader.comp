#version 310 es
// (`#version` must be the first line of an ES shader.)
// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: an HDR tone-mapping kernel written as GLSL ES 3.1 with `mediump` arithmetic,
// so that glslang marks its float operations RelaxedPrecision. The inputs are highp (storage
// buffer), the arithmetic mediump, the output highp.
precision mediump float;

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer Hdr { highp vec4 hdr[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Ldr { highp vec4 ldr[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Luma { highp float luma[]; };

const vec3 LUMA = vec3(0.2126, 0.7152, 0.0722);

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 c = hdr[i];
    mediump float exposure = c.a * 0.2 + 0.3;
    vec3 x = c.rgb * exposure;
    // Reinhard per channel with a white point of 4: x * (1 + x / 16) / (1 + x).
    vec3 mapped = x * (1.0 + x * (1.0 / 16.0)) / (1.0 + x);
    mediump float l = dot(mapped, LUMA);
    // Desaturate towards the luminance by a fixed amount, then a cheap gamma-like curve
    // (x * (2 - x) on [0, 1]).
    vec3 d = mix(vec3(l), mapped, 0.8);
    vec3 g = clamp(d, 0.0, 1.0);
    g = g * (2.0 - g);
    ldr[i] = vec4(g, 1.0);
    luma[i] = l;
}
