// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: a 2D workgroup transposes a 16 x 16 tile through shared memory (padded row to
// avoid bank conflicts on real hardware), using gl_LocalInvocationID.xy and gl_WorkGroupID.
#version 450
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint src[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint dst[]; };
layout(push_constant) uniform P { uint width; uint height; } pc;
shared uint tile[16][17];

void main() {
    uvec2 l = gl_LocalInvocationID.xy;
    uvec2 g = gl_WorkGroupID.xy * 16u;
    tile[l.y][l.x] = src[(g.y + l.y) * pc.width + g.x + l.x];
    barrier();
    // Write the transposed tile at the mirrored position.
    dst[(g.x + l.y) * pc.height + g.y + l.x] = tile[l.x][l.y];
}
