// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: texelFetch from every level of a 2D, a 2D-array and a 3D texture, plus
// textureSize per level and textureQueryLevels; no filtering, so results are exact texels.
// textureSize takes constant LODs: llvmpipe evaluates a non-uniform LOD operand of
// OpImageQuerySizeLod from one lane only (observed with Mesa 22.3), so the per-invocation
// level is selected after querying each level.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D tex2d;
layout(set = 0, binding = 1) uniform sampler2DArray texArray;
layout(set = 1, binding = 0) uniform sampler3D tex3d;
layout(set = 0, binding = 2, std430) readonly buffer In { uvec4 r[]; };
layout(set = 0, binding = 3, std430) writeonly buffer Out { vec4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 q = r[i];
    int lod = int(q.z % 3u);
    ivec2 sizes[3] = ivec2[3](textureSize(tex2d, 0), textureSize(tex2d, 1), textureSize(tex2d, 2));
    ivec2 s = sizes[lod];
    ivec2 p = ivec2(q.xy % uvec2(s));
    vec4 a = texelFetch(tex2d, p, lod);
    int alod = int(q.w % 2u);
    ivec3 sa = alod == 0 ? textureSize(texArray, 0) : textureSize(texArray, 1);
    vec4 b = texelFetch(texArray, ivec3(ivec2(q.yx % uvec2(sa.xy)), int(q.z % uint(sa.z))), alod);
    ivec3 s3 = textureSize(tex3d, 0);
    vec4 c = texelFetch(tex3d, ivec3(q.xyz % uvec3(s3)), 0);
    o[i * 4u + 0u] = a;
    o[i * 4u + 1u] = b;
    o[i * 4u + 2u] = c;
    o[i * 4u + 3u] = vec4(float(s.x * 100 + s.y), float(sa.x * 10000 + sa.y * 100 + sa.z),
                          float(textureQueryLevels(tex2d)), float(textureQueryLevels(texArray) * 10 + s3.z));
}
