// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: a 2D 5-point stencil on an 8 x 8 workgroup tile with a one-texel halo loaded
// into shared memory (edge invocations load the halo), clamped at the domain edge.
#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, std430) readonly buffer In { float src[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { float dst[]; };
layout(push_constant) uniform P { int width; int height; float alpha; } pc;
shared float tile[10][10];

float at(ivec2 p) {
    p = clamp(p, ivec2(0), ivec2(pc.width - 1, pc.height - 1));
    return src[p.y * pc.width + p.x];
}

void main() {
    ivec2 l = ivec2(gl_LocalInvocationID.xy);
    ivec2 g = ivec2(gl_GlobalInvocationID.xy);
    tile[l.y + 1][l.x + 1] = at(g);
    if (l.x == 0) tile[l.y + 1][0] = at(g - ivec2(1, 0));
    if (l.x == 7) tile[l.y + 1][9] = at(g + ivec2(1, 0));
    if (l.y == 0) tile[0][l.x + 1] = at(g - ivec2(0, 1));
    if (l.y == 7) tile[9][l.x + 1] = at(g + ivec2(0, 1));
    barrier();
    float c = tile[l.y + 1][l.x + 1];
    float lap = tile[l.y + 1][l.x] + tile[l.y + 1][l.x + 2] + tile[l.y][l.x + 1] + tile[l.y + 2][l.x + 1] - 4.0 * c;
    dst[g.y * pc.width + g.x] = c + pc.alpha * lap;
}
