#version 330
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): gl_FragCoord: pixel-centre coordinates, a checkerboard and a gradient
layout(location = 0) out vec4 color;
void main() {
    vec2 c = gl_FragCoord.xy;
    ivec2 cell = ivec2(c) / 4;
    float checker = float((cell.x + cell.y) & 1);
    color = vec4(c, checker, c.x * 0.125 - c.y * 0.0625 + gl_FragCoord.z);
}
