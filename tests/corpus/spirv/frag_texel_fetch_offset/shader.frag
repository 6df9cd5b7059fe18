// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: texelFetch and texelFetchOffset addressed by gl_FragCoord, textureOffset and
// textureLodOffset with constant offsets, textureSize and textureQueryLevels.
#version 450
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 fetched;
layout(location = 1) out vec4 offsets;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 s0 = textureSize(tex, 0);
    ivec2 s1 = textureSize(tex, 1);
    fetched = texelFetch(tex, p % s0, 0) + texelFetchOffset(tex, (p / 2) % (s1 - 1), 1, ivec2(1, 0)) * 10.0;
    offsets = textureOffset(tex, uv, ivec2(-2, 3)) + textureLodOffset(tex, uv, 1.0, ivec2(1, 1))
            + vec4(float(s0.x + s1.y), float(textureQueryLevels(tex)), 0.0, 0.0);
}
