#version 450
// Matrix instructions and GLSL matrix functions.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) readonly buffer In { mat4 m[]; } inp;
layout(set = 0, binding = 1) writeonly buffer Out { vec4 r[]; } outp;

void main() {
    uint i = gl_GlobalInvocationID.x;
    mat4 a = inp.m[i];
    mat3 b = mat3(a);
    mat2 c = mat2(a[2].xy, a[3].zw);
    vec4 v = a[1];
    uint o = i * 8u;
    outp.r[o + 0] = a * v;
    outp.r[o + 1] = v * a;
    outp.r[o + 2] = (a * transpose(a))[2];
    outp.r[o + 3] = vec4(determinant(a), determinant(b), determinant(c), dot(v, v));
    outp.r[o + 4] = inverse(a)[1];
    outp.r[o + 5] = vec4(inverse(b)[2], inverse(c)[1].x);
    outp.r[o + 6] = outerProduct(v, a[3])[0] + (a * 2.0)[3];
    outp.r[o + 7] = vec4(matrixCompMult(b, b)[1], 0.0);
}
