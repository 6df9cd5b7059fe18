#version 330
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): textureLod with a per-pixel LOD on a mipmapped RGBA16F texture (trilinear)
layout(binding = 0) uniform sampler2D tex;
layout(location = 0) in vec4 uv;
layout(location = 0) out vec4 color;
void main() {
    color = textureLod(tex, uv.xy, uv.z * 4.0 + 0.3);
}
