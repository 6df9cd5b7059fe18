// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: std430 structs with vec3 + float packing, nested structs, mat3, float arrays and a row-major mat2x3; a std140 uniform block with a float array.
#version 450
layout(local_size_x = 32) in;
struct Inner { vec3 p; float w; ivec2 q; };
struct Rec { Inner in0; mat3 m; float f[3]; vec2 t; };
layout(set = 0, binding = 0, std430) readonly buffer In { Rec recs[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { Rec outs[]; };
layout(set = 0, binding = 2, std140) uniform U { float scale[4]; vec3 off; int n; } u;
layout(set = 0, binding = 3, std430, row_major) readonly buffer RM { mat2x3 rm[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    Rec r = recs[i];
    mat2x3 rmi = rm[i];
    r.in0.p = r.m * r.in0.p * u.scale[i % 4u] + u.off;
    r.in0.w += float(r.in0.q.x - r.in0.q.y);
    r.in0.q = r.in0.q.yx * u.n;
    r.m = transpose(r.m);
    r.f[i % 3u] = dot(rmi[1], r.in0.p);
    r.t = vec3(1.0, 2.0, 3.0) * rmi;
    outs[i] = r;
    outs[i].m[2] = vec3(r.f[0], r.f[1], r.f[2]) + rm[i][0];
}
