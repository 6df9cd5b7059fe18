#version 450
// Loop shapes: do-while (the condition in the continue construct), a return from inside nested
// loops of main, a callee returning from a nested loop, a loop inside a switch inside a loop
// with `continue`/`break`, and a dynamically indexed local array of structures.
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) readonly buffer In { int a[]; } inp;
layout(set = 0, binding = 1) buffer Out { int r[]; } outp;

struct Pair { int k; int v; };

int find(int x) {
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 4; j++) {
            if (i * 4 + j == x) return i * 10 + j;
        }
    }
    return -1;
}

void main() {
    uint id = gl_GlobalInvocationID.x;
    int x = inp.a[id];
    int acc = 0;
    int n = 0;
    do {
        acc += n * x;
        n++;
    } while (n < (x & 7));
    Pair ps[4];
    for (int i = 0; i < 4; i++) { ps[i].k = i * x; ps[i].v = i + x; }
    ps[x & 3].v += 100;
    for (int i = 0; i < 3; i++) {
        switch (i + (x & 1)) {
            case 0:
                for (int j = 0; j < 3; j++) { if (j == x % 3) break; acc += 1; }
                continue;
            case 1:
                acc += ps[(i + x) & 3].v;
                break;
            default:
                acc -= ps[i].k;
        }
        acc *= 2;
    }
    outp.r[id] = acc + 1000 * find(x & 15);
    for (int i = 0; i < 5; i++) {
        for (int j = 0; j < 5; j++) {
            if (i * j == x) {
                outp.r[id] += 7;
                return;
            }
        }
    }
    outp.r[id] -= 3;
}
