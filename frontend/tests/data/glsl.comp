#version 450
// GLSL.std.450 functions on generated inputs; each output slot holds one function.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 x[]; } inp;
layout(set = 0, binding = 1) writeonly buffer Out { float r[]; } outp;
const int N = 32;

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = inp.x[i];
    float a = v.x, b = v.y, c = v.z, d = v.w;  // a, b in [-4, 4]; c in (0, 8]; d in [-1, 1]
    uint o = i * N;
    outp.r[o + 0] = atan(a);
    outp.r[o + 1] = atan(a, b);
    outp.r[o + 2] = asin(d);
    outp.r[o + 3] = acos(d);
    outp.r[o + 4] = tan(d);
    outp.r[o + 5] = sinh(d);
    outp.r[o + 6] = cosh(d);
    outp.r[o + 7] = tanh(a);
    outp.r[o + 8] = asinh(a);
    outp.r[o + 9] = acosh(c + 1.0);
    outp.r[o + 10] = atanh(d * 0.9);
    outp.r[o + 11] = exp(d);
    outp.r[o + 12] = log(c);
    outp.r[o + 13] = mod(a, b);
    outp.r[o + 14] = fract(a);
    outp.r[o + 15] = smoothstep(-1.0, 2.0, a);
    outp.r[o + 16] = mix(a, b, d);
    outp.r[o + 17] = step(b, a);
    outp.r[o + 18] = clamp(a, -1.0, 1.5);
    outp.r[o + 19] = sign(a);
    outp.r[o + 20] = inversesqrt(c);
    outp.r[o + 21] = length(v.xyz);
    outp.r[o + 22] = distance(v.xy, v.zw);
    outp.r[o + 23] = normalize(v.xyz).y;
    outp.r[o + 24] = cross(v.xyz, vec3(1.0, 2.0, 3.0)).z;
    outp.r[o + 25] = reflect(v.xyz, normalize(vec3(0.0, 1.0, 1.0))).y;
    outp.r[o + 26] = refract(normalize(v.xyz), vec3(0.0, 1.0, 0.0), 0.7).x;
    int e;
    float m = frexp(c * 100.0, e);
    outp.r[o + 27] = m + float(e);
    outp.r[o + 28] = ldexp(a, int(d * 10.0));
    outp.r[o + 29] = uintBitsToFloat(packHalf2x16(vec2(a, b)) & 0x7fff7fffu) ;
    outp.r[o + 30] = unpackUnorm4x8(packUnorm4x8(vec4(d, c * 0.1, 0.5, a))).y;
    outp.r[o + 31] = float(findMSB(int(a * 1000.0))) + 100.0 * float(bitCount(uint(c * 1000.0)));
}
