#version 330
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): interpolated varyings through float arithmetic, min/max and a select
layout(location = 0) in vec4 a;
layout(location = 1) in vec2 b;
layout(location = 0) out vec4 color;
void main() {
    vec4 t = a * b.x + vec4(b.y, -b.y, 0.5, 1.0);
    t.z = max(t.z, -0.25) * min(a.w, 2.0);
    color = t.x > t.y ? t : t.wzyx * 0.5;
}
