#version 450
// Control flow: early return, nested loops with break/continue, switch with fall-through,
// continue inside a switch, and a function with returns inside a loop (inlined).
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer In { int a[]; } inp;
layout(set = 0, binding = 1) writeonly buffer Out { int r[]; } outp;

int first_multiple(int x, int m) {
    for (int i = 1; i < 20; i++) {
        if ((x * i) % m == 0) return i;
        if (i > x + 10) break;
    }
    return -1;
}

void main() {
    uint id = gl_GlobalInvocationID.x;
    int x = inp.a[id];
    if (x == 0) {
        outp.r[id] = 777;
        return;
    }
    int acc = 0;
    for (int i = 0; i < 6; i++) {
        switch ((x + i) & 3) {
            case 0: acc += 1;
            case 1: acc += 10; break;
            case 2: if (i == 3) continue; acc += 100; break;
            default: acc -= 1000;
        }
        int j = 0;
        while (true) {
            j++;
            if (j > i) break;
            if ((j & 1) == 0) continue;
            acc += j;
        }
    }
    outp.r[id] = acc + 100000 * first_multiple(abs(x), 7);
}
