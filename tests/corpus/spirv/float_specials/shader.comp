// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: IEEE special values (NaN, infinities, signed zeros, denormals) through the
// basic operations whose results SPIR-V defines for them. No min/max/clamp: SPIR-V leaves their
// result with a NaN operand undefined. No `a * 0.0`: without SignedZeroInfNanPreserve an
// implementation may fold it to +0.0 (lavapipe does), losing the -0.0 and NaN IEEE gives.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { vec2 v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { vec4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float a = v[i].x;
    float b = v[i].y;
    o[i * 3u + 0u] = vec4(a + b, a - b, a * b, -a);
    o[i * 3u + 1u] = vec4(abs(a), a * 0.5, b * 1.0, a / (b == 0.0 ? 3.0 : b));
    o[i * 3u + 2u] = vec4(float(isnan(a)) + 2.0 * float(isinf(b)), float(a < b) + 2.0 * float(a == b),
                          float(a != a), intBitsToFloat(floatBitsToInt(a) ^ int(0x80000000)));
}
