// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: switch with fall-through and default, nested loops with break and continue,
// early return, a do-while and a loop whose trip count depends on the data.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { ivec2 v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { int o[]; };

int classify(int x) {
    int r = 0;
    switch (x & 7) {
    case 0:
        r += 100;
    case 1:           // fall-through from 0
        r += 10;
        break;
    case 2:
    case 3:
        r = -x;
        break;
    case 6:
        return 42;
    default:
        r = x * 3;
    }
    return r;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    int a = v[i].x;
    int b = v[i].y;
    if (a == 0) {
        o[i * 4u] = -1;
        return;
    }
    int acc = 0;
    for (int j = 0; j < 8; ++j) {
        if (j == (b & 7)) continue;
        for (int k = 0; k < 8; ++k) {
            if (k > j) break;
            acc += (j ^ k) * (a & 15);
        }
        if (acc > 500) break;
    }
    int steps = 0;
    int n = abs(a) % 1000 + 1;
    do {
        n = (n & 1) == 0 ? n / 2 : 3 * n + 1;
        steps++;
    } while (n != 1 && steps < 200);
    o[i * 4u + 0u] = classify(a);
    o[i * 4u + 1u] = classify(b) + classify(a ^ b);
    o[i * 4u + 2u] = acc;
    o[i * 4u + 3u] = steps;
}
