// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: a function-local array with dynamic indexing, sorted by insertion sort, then a
// median and a lookup into a constant table.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0, std430) readonly buffer In { float v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { float o[]; };

const float table[8] = float[8](0.5, 1.5, -2.0, 4.0, 8.25, -16.0, 32.5, 0.125);

void main() {
    uint i = gl_GlobalInvocationID.x;
    float a[9];
    for (int k = 0; k < 9; ++k) a[k] = v[i * 9u + uint(k)];
    for (int k = 1; k < 9; ++k) {
        float key = a[k];
        int j = k - 1;
        while (j >= 0 && a[j] > key) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = key;
    }
    int t = int(abs(a[4]) * 10.0) & 7;
    for (int k = 0; k < 9; ++k) o[i * 10u + uint(k)] = a[k];
    o[i * 10u + 9u] = a[4] * table[t];
}
