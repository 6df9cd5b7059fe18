#version 330
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): texture() with bilinear filtering and repeat wrapping on an RGBA8 2D texture
layout(binding = 0) uniform sampler2D tex;
layout(location = 0) in vec4 uv;
layout(location = 0) out vec4 color;
void main() {
    color = texture(tex, uv.xy) * uv.w + vec4(0.0, 0.0, 0.0, uv.z);
}
