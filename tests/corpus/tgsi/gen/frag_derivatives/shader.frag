#version 330
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_shading_language_420pack : require
#extension GL_ARB_derivative_control : require
// agxc TGSI corpus (MIT OR Apache-2.0): dFdx, dFdy, fwidth and the Fine/Coarse variants of non-linear functions
layout(location = 0) in vec2 p;
layout(location = 0) out vec4 d;
layout(location = 1) out vec4 e;
void main() {
    float q = p.x * p.x + p.y;
    float s = p.x * p.y;
    d = vec4(dFdx(q), dFdy(q), fwidth(s), dFdx(p.y) + dFdy(p.x));
    e = vec4(dFdxFine(s), dFdyFine(s), dFdxCoarse(q), dFdyCoarse(q));
}
