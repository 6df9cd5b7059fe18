// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: depth-comparison sampling with implicit LOD in a fragment shader:
// sampler2DShadow with texture() and textureProj(), sampler2DArrayShadow and samplerCubeShadow.
#version 450
layout(set = 0, binding = 0) uniform sampler2DShadow s2d;
layout(set = 0, binding = 1) uniform sampler2DArrayShadow sArray;
layout(set = 0, binding = 2) uniform samplerCubeShadow sCube;
layout(location = 0) in vec3 coord;   // uv + reference depth
layout(location = 1) in vec3 dir;
layout(location = 0) out vec4 o;

void main() {
    float a = texture(s2d, coord);
    float b = textureProj(s2d, vec4(coord * 2.0, 2.0));
    float c = texture(sArray, vec4(coord.xy, floor(coord.x * 3.0), coord.z));
    float d = texture(sCube, vec4(dir, coord.z));
    o = vec4(a, b * 2.0 + c, d, a + b + c + d);
}
