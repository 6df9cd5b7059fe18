// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: integer textures (usampler2D rgba32ui, isampler2D r32i) read with texelFetch
// and nearest explicit-LOD sampling, combined with integer arithmetic and written to an
// rgba32i storage image and a buffer; every value is exact.
#version 450
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0) uniform usampler2D ids;
layout(set = 0, binding = 1) uniform isampler2D offs;
layout(set = 0, binding = 2, rgba32i) uniform writeonly iimage2D result;
layout(set = 0, binding = 3, std430) writeonly buffer Out { uvec4 o[]; };

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = textureSize(ids, 0);
    uvec4 id = texelFetch(ids, p, 0);
    int off = texelFetch(offs, ivec2(size.x - 1 - p.x, p.y), 0).r;
    // Texel centres: nearest sampling reads texel (p.y, p.x) of the transposed position.
    vec2 uv = (vec2(p.yx) + 0.5) / vec2(size);
    uvec4 t = textureLod(ids, uv, 0.0);
    ivec4 r = ivec4(id) * 3 - ivec4(t) + off;
    imageStore(result, p, ivec4(r.x ^ r.y, r.z >> 2, min(r.w, off), int(id.x % 7u) - off));
    uint i = uint(p.y * size.x + p.x);
    o[i] = uvec4(id.x + t.y, uint(off) * 2654435761u, t.z ^ id.w, uint(textureSize(offs, 0).x));
}
