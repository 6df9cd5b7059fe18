#version 330
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): divergent branches and a data-dependent loop with break and continue in a fragment shader, with a derivative taken outside them
layout(location = 0) in vec2 p;
layout(location = 0) out vec4 color;
void main() {
    float g = dFdx(p.x * p.y);
    // The varyings are exact multiples of 2^-7, so these counts are exact everywhere.
    int n = int(floor(p.x * 4.0)) + 12;
    int m = int(floor(p.y * 8.0)) + 10;
    float acc = 0.0;
    int steps = 0;
    for (int k = 0; k < 24; k++) {
        if (k >= n) {
            break;
        }
        if ((k & 3) == 1) {
            continue;
        }
        acc += p.y * float(k);
        steps++;
        if (steps * steps > m) {
            break;
        }
    }
    if (steps == 0) {
        color = vec4(0.0, 0.0, 0.0, g);
    } else if ((steps & 1) == 0) {
        color = vec4(acc, float(steps), float(n), g);
    } else {
        color = vec4(-acc, float(m), 1.0, g);
    }
}
