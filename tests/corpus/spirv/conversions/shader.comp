// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: conversions between float, int and uint, bit casts, and the GLSL.std.450
// packing functions (half, unorm, snorm).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { vec4 v[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uvec4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 x = v[i];                 // [-300, 300]
    ivec4 si = ivec4(x);           // truncation toward zero
    uvec4 ui = uvec4(abs(x));
    vec4 back = vec4(si) * 0.5 + vec4(ui);
    vec2 h = unpackHalf2x16(packHalf2x16(x.xy * 0.01));
    o[i * 4u + 0u] = uvec4(si);
    o[i * 4u + 1u] = ui ^ floatBitsToUint(back);
    o[i * 4u + 2u] = uvec4(packHalf2x16(x.xy * 0.01), packUnorm4x8(x * 0.004 + 0.5),
                           packSnorm2x16(x.zw * 0.004), packSnorm4x8(x * 0.003));
    o[i * 4u + 3u] = uvec4(floatBitsToUint(h), floatBitsToUint(unpackUnorm4x8(uint(si.x) * 2654435761u).yz));
}
