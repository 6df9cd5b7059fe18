// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: dynamic indexing of vector components, matrix columns and rows, and local arrays of vec3 (written, copied, read).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uvec4 v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { float r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 w = v[i];
    vec4 a = vec4(w & 255u) * 0.25;
    mat4 m = mat4(a, a.yzwx, a.zwxy * 2.0, a.wxyz - 1.0);
    uint k = w.x % 4u;
    uint j = (w.y >> 3) % 4u;
    vec3 arr[5];
    for (int t = 0; t < 5; ++t) arr[t] = vec3(float(t), a.x, a.y - float(t));
    arr[w.z % 5u] = a.wzy;
    arr[(w.w >> 5) % 5u].y += 7.0;
    vec3 copy[5] = arr;
    copy[0] = vec3(-1.0);
    uint b = i * 8u;
    r[b + 0u] = a[k];
    r[b + 1u] = m[k][j];
    r[b + 2u] = m[j].y + m[1][k];
    vec4 row = vec4(m[0][j], m[1][j], m[2][j], m[3][j]);
    r[b + 3u] = dot(row, a);
    r[b + 4u] = arr[k].x + arr[j].z;
    r[b + 5u] = copy[k].y - arr[(k + 1u) % 5u].y;
    vec4 t = a;
    t[j] = 100.0;
    t[k] += 0.5;
    r[b + 6u] = t.x + t.y * 3.0 + t.z * 5.0 + t.w * 7.0;
    r[b + 7u] = (m * a)[k] + (a * m)[j];
}
