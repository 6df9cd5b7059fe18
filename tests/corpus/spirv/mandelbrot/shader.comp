// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: the Mandelbrot iteration over a 32 x 24 grid: a loop with a data-dependent
// break, complex arithmetic, and a smooth colouring with log2.
#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, std430) writeonly buffer Out { vec2 o[]; };
layout(push_constant) uniform P { vec2 origin; vec2 step; uint maxIter; } pc;

void main() {
    uvec2 p = gl_GlobalInvocationID.xy;
    vec2 c = pc.origin + vec2(p) * pc.step;
    vec2 z = vec2(0.0);
    uint n = 0u;
    for (; n < pc.maxIter; ++n) {
        z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
        if (dot(z, z) > 256.0) break;
    }
    float smoothN = n < pc.maxIter ? float(n) + 1.0 - log2(log2(dot(z, z)) * 0.5) : 0.0;
    o[p.y * 32u + p.x] = vec2(float(n), smoothN);
}
