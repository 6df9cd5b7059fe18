#version 330
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): two colour outputs at locations 0 and 1
layout(location = 0) in vec4 a;
layout(location = 0) out vec4 first;
layout(location = 1) out vec4 second;
void main() {
    first = a * a;
    second = vec4(a.x + a.y, a.z - a.w, -a.x, 1.0);
}
