// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: explicit-LOD sampling in a compute shader: textureLod with trilinear
// filtering across mip levels, textureLodOffset, and textureGrad (which computes the LOD from
// the given gradients), on a repeating rgba8 texture.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1, std430) readonly buffer In { vec4 c[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Out { vec4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 q = c[i];
    vec2 uv = q.xy;                 // [-1, 2]: repeat addressing
    float lod = q.z * 1.5 + 1.5;    // [0, 3]
    o[i * 3u + 0u] = textureLod(tex, uv, lod);
    o[i * 3u + 1u] = textureLodOffset(tex, uv, floor(lod), ivec2(-1, 2));
    o[i * 3u + 2u] = textureGrad(tex, uv, vec2(q.w * 0.1, 0.0), vec2(0.0, 0.05));
}
