// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: the Mandelbrot iteration per pixel with a data-dependent loop exit, so
// neighbouring pixels leave the loop at different iterations (divergent control flow).
#version 450
layout(location = 0) in vec2 c;
layout(location = 0) out vec4 o;
layout(push_constant) uniform P { int maxIter; float bailout; } pc;

void main() {
    vec2 z = vec2(0.0);
    int n = 0;
    while (n < pc.maxIter) {
        z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
        if (dot(z, z) > pc.bailout) break;
        n++;
    }
    float t = float(n) / float(pc.maxIter);
    o = vec4(t, t * t, sqrt(t), n == pc.maxIter ? 1.0 : 0.0);
}
