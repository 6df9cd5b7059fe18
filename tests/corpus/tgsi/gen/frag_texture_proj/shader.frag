#version 330
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): textureProj with vec3 and vec4 coordinates
layout(binding = 2) uniform sampler2D tex;
layout(location = 0) in vec4 uv;
layout(location = 1) in float q;
layout(location = 0) out vec4 color;
void main() {
    vec4 a = textureProj(tex, vec3(uv.xy * q, q));
    vec4 b = textureProj(tex, vec4(uv.yx * q, 0.0, q));
    color = a * 0.75 + b * 0.25;
}
