// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: function calls with in, out and inout parameters, struct arguments and
// returns, a function called from several places and from a loop.
#version 450
layout(local_size_x = 32) in;
struct Body { vec3 pos; float mass; };
layout(set = 0, binding = 0, std430) readonly buffer In { Body bodies[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { vec4 o[]; };

void swapIfGreater(inout float a, inout float b) {
    if (a > b) { float t = a; a = b; b = t; }
}

Body centre(Body a, Body b) {
    Body c;
    c.mass = a.mass + b.mass;
    c.pos = (a.pos * a.mass + b.pos * b.mass) / c.mass;
    return c;
}

float polyEval(float x, out float derivative) {
    // 3x^3 - 2x^2 + x - 5 by Horner, and its derivative.
    derivative = (9.0 * x - 4.0) * x + 1.0;
    return ((3.0 * x - 2.0) * x + 1.0) * x - 5.0;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    Body a = bodies[2u * i];
    Body b = bodies[2u * i + 1u];
    Body c = centre(a, b);
    float x = a.pos.x, y = a.pos.y, z = a.pos.z;
    swapIfGreater(x, y);
    swapIfGreater(y, z);
    swapIfGreater(x, y);
    float d;
    float root = b.pos.x;
    // A few Newton steps from a data-dependent start.
    for (int k = 0; k < 4; ++k) {
        float f = polyEval(root, d);
        root -= f / d;
    }
    o[2u * i] = vec4(c.pos, c.mass);
    o[2u * i + 1u] = vec4(x, y, z, root);
}
