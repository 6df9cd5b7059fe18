#version 450
// More GLSL.std.450 members: modf, the integer functions, faceforward, snorm packing, the
// N-clamp family through clamp on NaN-free inputs, and 16-bit arithmetic.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 x[]; } inp;
layout(set = 0, binding = 1) writeonly buffer Out { float r[]; } outp;
const uint N = 12u;

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = inp.x[i];
    float whole;
    float fr = modf(v.x, whole);
    uint o = i * N;
    outp.r[o + 0u] = fr;
    outp.r[o + 1u] = whole;
    int k = int(v.y * 1000.0);
    outp.r[o + 2u] = float(findLSB(k));
    outp.r[o + 3u] = float(findMSB(uint(abs(k))));
    outp.r[o + 4u] = float(clamp(k, -300, 300)) + float(sign(k)) * 0.5;
    outp.r[o + 5u] = faceforward(vec3(1.0, 2.0, 3.0), v.xyz, vec3(0.0, 1.0, 0.0)).y;
    uint p = packSnorm2x16(v.xy * 0.5);
    outp.r[o + 6u] = unpackSnorm2x16(p).x;
    outp.r[o + 7u] = float(p & 0xffffu);
    outp.r[o + 8u] = float(bitfieldExtract(k, 3, 5)) + 100.0 * float(bitfieldReverse(uint(k)) >> 28);
    float16_t h = float16_t(v.z);
    outp.r[o + 9u] = float(h * h + float16_t(1.0));
    outp.r[o + 10u] = roundEven(v.w * 4.0);
    outp.r[o + 11u] = float(uint(v.w * 1000.0) % 7u) + float(max(k, 17));
}
