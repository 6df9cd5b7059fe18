// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: projective and explicit-gradient sampling in a fragment shader: textureProj
// (vec3 and vec4 coordinates), textureProjLod, textureGrad and textureGradOffset, on a
// mipmapped float texture with trilinear filtering.
#version 450
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec4 pc;     // projective coordinate
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 a;
layout(location = 1) out vec4 b;

void main() {
    vec4 p3 = textureProj(tex, pc.xyw);
    vec4 p4 = textureProj(tex, pc);
    vec4 pl = textureProjLod(tex, pc.xyw, 1.5);
    vec4 g = textureGrad(tex, uv, vec2(0.09, 0.0), vec2(0.0, 0.03));
    vec4 go = textureGradOffset(tex, uv, vec2(0.02, 0.01), vec2(-0.01, 0.02), ivec2(1, -2));
    a = p3 + p4 * 2.0 + pl * 4.0;
    b = g - go;
}
