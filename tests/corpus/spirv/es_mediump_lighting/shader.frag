#version 310 es
// (`#version` must be the first line of an ES shader.)
// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: Blinn-Phong lighting of two lights written as GLSL ES 3.1 with `mediump`
// arithmetic (the default float precision of the fragment stage here), so that glslang marks
// it RelaxedPrecision. The varyings are highp; the specular power is x^16 by squaring.
precision mediump float;

layout(location = 0) in highp vec3 v_normal;
layout(location = 1) in highp vec3 v_pos;
layout(location = 2) in highp vec2 v_uv;
layout(location = 0) out vec4 o_color;

const vec3 EYE = vec3(0.0, 0.0, 4.0);
const vec3 L0_POS = vec3(2.0, 3.0, 2.5);
const vec3 L0_COL = vec3(1.0, 0.9, 0.7);
const vec3 L1_DIR = vec3(-0.48, 0.6, 0.64);
const vec3 L1_COL = vec3(0.2, 0.3, 0.5);

vec3 blinn(vec3 n, vec3 l, vec3 v, vec3 col, float atten) {
    vec3 h = normalize(l + v);
    float diff = max(dot(n, l), 0.0);
    float s = max(dot(n, h), 0.0);
    s = s * s;
    s = s * s;
    s = s * s;
    s = s * s;
    return col * (atten * (diff + 0.5 * s));
}

void main() {
    vec3 n = normalize(v_normal);
    vec3 v = normalize(EYE - v_pos);
    vec3 d0 = L0_POS - v_pos;
    float dist2 = dot(d0, d0);
    vec3 l0 = d0 * inversesqrt(dist2);
    float atten0 = 4.0 / (1.0 + dist2);
    // A checker albedo from the texture coordinates.
    vec2 cell = floor(v_uv * 4.0);
    float check = mod(cell.x + cell.y, 2.0);
    vec3 albedo = mix(vec3(0.8, 0.3, 0.2), vec3(0.3, 0.6, 0.9), check);
    vec3 light = vec3(0.08) + blinn(n, l0, v, L0_COL, atten0) + blinn(n, L1_DIR, v, L1_COL, 1.0);
    o_color = vec4(albedo * light, 1.0);
}
