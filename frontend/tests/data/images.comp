#version 450
// Storage images (float, integer, no declared format) and integer textures; read by
// tests/spirv_images.rs.
layout(local_size_x = 4, local_size_y = 2) in;
layout(set = 0, binding = 0, rgba32f) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba32f) uniform writeonly image2D dst;
layout(set = 0, binding = 2, r32ui) uniform uimage2D counts;
layout(set = 0, binding = 3) uniform usampler2D ids;
layout(set = 0, binding = 4) uniform isampler2D offs;
layout(set = 0, binding = 5) buffer Out { ivec4 sizes; uint fetched[]; };
layout(set = 0, binding = 6) uniform writeonly image2D anyfmt;

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 a = imageLoad(src, p);
    // Column 4 is outside the 4-wide image: robust access reads zeros.
    vec4 b = imageLoad(src, p + ivec2(1, 0));
    imageStore(dst, p, a * 2.0 + b);
    uint c = imageLoad(counts, p).x;
    uvec4 id = texelFetch(ids, p, 0);
    imageStore(counts, p, uvec4(c + id.x));
    int idx = p.y * 4 + p.x;
    fetched[idx] = id.y + uint(texelFetch(offs, p, 0).x);
    imageStore(anyfmt, p, vec4(0.25 * float(p.x), 1.0, 0.0, 0.5));
    if (idx == 0) {
        sizes = ivec4(imageSize(src), textureSize(ids, 0));
    }
}
