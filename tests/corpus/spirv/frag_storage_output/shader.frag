// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: a fragment shader with side effects: each pixel writes its own slot of a
// storage buffer (indexed from gl_FragCoord) and reads a uniform buffer; pixels that discard
// write nothing. Helper invocations never store.
#version 450
layout(set = 0, binding = 0, std430) writeonly buffer Out { vec4 slots[]; };
layout(set = 0, binding = 1, std140) uniform Params { vec4 tint; int width; } params;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    if (((p.x + p.y) % 5) == 0) discard;
    vec4 v = vec4(uv, uv.x * uv.y, 1.0) * params.tint;
    slots[p.y * params.width + p.x] = v;
    o = v.wzyx;
}
