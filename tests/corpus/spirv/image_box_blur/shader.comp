// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: a 3x3 box blur from one rgba32f storage image into another (imageLoad,
// imageStore, imageSize), clamping the neighbourhood at the edges, plus the blurred luminance
// into an r32f image and a per-row texel count into an r32ui image (read-modify-write by the
// one invocation that owns each texel).
#version 450
layout(local_size_x = 8, local_size_y = 4) in;
layout(set = 0, binding = 0, rgba32f) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba32f) uniform writeonly image2D dst;
layout(set = 0, binding = 2, r32f) uniform writeonly image2D luma;
layout(set = 0, binding = 3, r32ui) uniform uimage2D tally;
layout(set = 0, binding = 4, std430) writeonly buffer Sizes { ivec2 size; };

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 s = imageSize(src);
    vec4 sum = vec4(0.0);
    for (int dy = -1; dy <= 1; dy++) {
        for (int dx = -1; dx <= 1; dx++) {
            sum += imageLoad(src, clamp(p + ivec2(dx, dy), ivec2(0), s - 1));
        }
    }
    vec4 blurred = sum / 9.0;
    imageStore(dst, p, blurred);
    imageStore(luma, p, vec4(dot(blurred.rgb, vec3(0.25, 0.5, 0.25))));
    uint t = imageLoad(tally, p).x;
    imageStore(tally, p, uvec4(t * 3u + uint(p.x + p.y * s.x)));
    if (p == ivec2(0)) {
        size = s;
    }
}
