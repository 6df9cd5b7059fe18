// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: cube-map face selection (textureLod on a samplerCube with nearest filtering)
// and depth comparison (textureLod on sampler2DShadow with two compare ops).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerCube cube;
layout(set = 0, binding = 1) uniform sampler2DShadow shadowPoint;
layout(set = 0, binding = 2) uniform sampler2DShadow shadowLessEqual;
layout(set = 0, binding = 3, std430) readonly buffer In { vec4 d[]; };
layout(set = 0, binding = 4, std430) writeonly buffer Out { vec4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 q = d[i];
    o[i * 2u] = textureLod(cube, q.xyz, 0.0);
    vec3 ref = vec3(q.xy * 0.5 + 0.5, q.w * 0.5 + 0.5);
    o[i * 2u + 1u] = vec4(textureLod(shadowPoint, ref, 0.0), textureLod(shadowLessEqual, ref, 0.0),
                          textureLod(shadowPoint, vec3(ref.xy, 2.0), 0.0), textureLod(shadowPoint, vec3(ref.xy, -1.0), 0.0));
}
