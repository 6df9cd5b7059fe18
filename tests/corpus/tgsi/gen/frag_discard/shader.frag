#version 330
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): discard under a data-dependent condition leaves the clear colour
layout(location = 0) in vec2 p;
layout(location = 0) out vec4 color;
void main() {
    float r = dot(p, p);
    if (r > 1.0 || (p.x < 0.0 && p.y > 0.25)) {
        discard;
    }
    color = vec4(r, p, 1.0 - r);
}
