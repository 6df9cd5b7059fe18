#version 330
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): cube-map sampling with directions spanning several faces
layout(binding = 0) uniform samplerCube sky;
layout(location = 0) in vec3 dir;
layout(location = 0) out vec4 color;
void main() {
    color = texture(sky, dir);
}
