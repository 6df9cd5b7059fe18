// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: textureGather of a chosen component, textureGatherOffset with a constant
// offset, and a depth-comparison gather.
#version 450
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2DShadow depth;
layout(location = 0) in vec3 uv;
layout(location = 0) out vec4 green;
layout(location = 1) out vec4 alpha_offset;
layout(location = 2) out vec4 compared;

void main() {
    green = textureGather(tex, uv.xy, 1);
    alpha_offset = textureGatherOffset(tex, uv.xy, ivec2(-1, 2), 3);
    compared = textureGather(depth, uv.xy, uv.z);
}
