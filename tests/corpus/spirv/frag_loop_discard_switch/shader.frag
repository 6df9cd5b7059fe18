// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: a fragment loop that discards part-way, a switch on a flat integer varying,
// gl_FrontFacing, gl_FragCoord.z/.w, two render targets written on different paths, and
// derivatives taken before the discard.
#version 450
layout(location = 0) in vec2 uv;
layout(location = 1) flat in int mode;
layout(location = 0) out vec4 color;
layout(location = 1) out vec4 extra;

float wave(vec2 p, int n) {
    float s = 0.0;
    for (int k = 0; k < n; ++k) {
        s += sin(p.x * float(k + 1)) * 0.5 + p.y * float(k);
    }
    return s;
}

void main() {
    vec2 d = vec2(dFdx(uv.x), dFdy(uv.y)) * 64.0;
    ivec2 cell = ivec2(gl_FragCoord.xy);
    float acc = 0.0;
    for (int i = 0; i < 8; ++i) {
        acc += float((cell.x ^ cell.y) & (1 << i));
        if (acc > 40.0 && ((cell.x + i) & 3) == 0) discard;
        if (acc > 90.0) break;
    }
    vec4 c;
    switch ((mode + cell.y) & 3) {
    case 0:
        c = vec4(acc / 128.0, d, 1.0);
        break;
    case 1:
        c = vec4(wave(uv, 3), 0.5, gl_FrontFacing ? 1.0 : -1.0, gl_FragCoord.w);
        // fall through
    case 2:
        c.y += gl_FragCoord.z;
        break;
    default:
        c = vec4(float(cell.x) * 0.125, float(cell.y) * 0.25, 0.0, -1.0);
    }
    color = c;
    if ((cell.x & 1) == 0) {
        extra = vec4(float(mode), acc, uv);
    } else {
        extra = vec4(d, 2.0, 3.0);
    }
}
