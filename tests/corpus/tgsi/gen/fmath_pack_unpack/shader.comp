#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
#extension GL_ARB_shading_language_packing : require
// agxc TGSI corpus (MIT OR Apache-2.0): packHalf2x16, unpackHalf2x16, pack/unpackUnorm2x16, pack/unpackSnorm2x16, pack/unpackUnorm4x8
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { vec4 a[]; };
layout(std430, binding = 1) writeonly buffer P { uvec4 p[]; };
layout(std430, binding = 2) writeonly buffer U { vec4 u[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 x = a[i];
    uint h = packHalf2x16(x.xy);
    uint un = packUnorm2x16(x.zw * 0.5 + 0.5);
    uint sn = packSnorm2x16(x.xw);
    uint u8 = packUnorm4x8(x * 0.5 + 0.5);
    p[i] = uvec4(h, un, sn, u8);
    u[2u * i + 0u] = vec4(unpackHalf2x16(h), unpackUnorm2x16(un));
    u[2u * i + 1u] = vec4(unpackSnorm2x16(sn), unpackUnorm4x8(u8).xy);
}
