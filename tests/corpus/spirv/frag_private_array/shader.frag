// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: a fragment shader filling a large local array at dynamic indices (private
// memory) and taking derivatives of values read back from it, so the helper invocations of
// each quad must keep their own private values; part of the pixels discard after writing.
#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(location = 1) out vec4 grads;

void main() {
    float ring[72];
    int n = int(uv.x * 40.0) + 8;
    for (int k = 0; k < 72; ++k) ring[k] = 0.0;
    for (int k = 0; k < n; ++k) ring[(k * 5 + int(uv.y * 16.0)) % 72] += float(k) * 0.25 + uv.y;
    float a = ring[int(uv.y * 60.0) % 72];
    float b = ring[(n * 3) % 72] + ring[71];
    // Derivatives of values read from private memory: the quad's helper lanes computed theirs.
    float da = dFdx(a) + dFdy(b);
    grads = vec4(dFdxFine(a), dFdyFine(a), dFdxFine(b), da);
    if (a > 5.0 && uv.x > 0.75) discard;
    color = vec4(a, b, float(n), ring[n % 72]);
}
