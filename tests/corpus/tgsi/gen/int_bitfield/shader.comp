#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
#extension GL_ARB_gpu_shader5 : require
// agxc TGSI corpus (MIT OR Apache-2.0): bitfieldExtract, bitfieldInsert, bitfieldReverse, bitCount, findLSB, findMSB, umulExtended, uaddCarry (GL_ARB_gpu_shader5)
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { uvec4 a[]; };
layout(std430, binding = 1) writeonly buffer R { uvec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 x = a[i];
    int off = int(i % 24u);
    int bits = int(1u + i % 8u);
    uint hi;
    uint lo;
    umulExtended(x.x, x.y, hi, lo);
    uint carry;
    uint sum = uaddCarry(x.z, x.w, carry);
    int shi;
    int slo;
    imulExtended(int(x.x), int(x.w), shi, slo);
    r[4u * i + 0u] = uvec4(bitfieldExtract(x.x, off, bits),
                           uint(bitfieldExtract(int(x.y), off, bits)),
                           bitfieldInsert(x.z, x.w, off, bits),
                           bitfieldReverse(x.w));
    r[4u * i + 1u] = uvec4(bitCount(x));
    r[4u * i + 2u] = uvec4(findLSB(x.x), findMSB(x.y), findMSB(int(x.z)), findLSB(x.w & 0xff00u));
    r[4u * i + 3u] = uvec4(hi ^ lo, sum, carry, uint(shi) + uint(slo));
}
