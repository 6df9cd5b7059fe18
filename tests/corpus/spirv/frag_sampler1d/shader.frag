// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: 1D textures: texture() with implicit LOD over a mip chain, textureLod,
// texelFetch and textureSize on a sampler1D.
#version 450
layout(set = 0, binding = 0) uniform sampler1D ramp;
layout(location = 0) in float t;
layout(location = 0) out vec4 o;

void main() {
    vec4 a = texture(ramp, t);
    vec4 b = textureLod(ramp, t * 0.5, 2.0);
    int n = textureSize(ramp, 0);
    vec4 c = texelFetch(ramp, int(gl_FragCoord.x) % n, 0);
    o = a + b * 0.5 + c * 0.25;
}
