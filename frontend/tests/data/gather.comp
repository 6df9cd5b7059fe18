#version 450
// Texture gathers for tests/spirv_gather.rs: each component, an offset, four offsets and a
// depth comparison.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2DShadow depth;
layout(set = 0, binding = 2, std430) buffer Uv { vec2 uv; };
layout(set = 0, binding = 3, std430) buffer Out { vec4 r[]; };
void main() {
    r[0] = textureGather(tex, uv);
    r[1] = textureGather(tex, uv, 2);
    r[2] = textureGatherOffset(tex, uv, ivec2(1, -1), 1);
    r[3] = textureGatherOffsets(tex, uv, ivec2[4](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1), ivec2(-1, -1)));
    r[4] = textureGather(depth, uv, 0.25);
}
