#version 330
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): textureGrad with explicit gradients, nearest mip selection
layout(binding = 0) uniform sampler2D tex;
layout(location = 0) in vec4 uv;
layout(location = 0) out vec4 color;
void main() {
    vec2 gx = vec2(uv.z * 0.25, 0.0);
    vec2 gy = vec2(0.0, 0.03 + uv.w * 0.05);
    color = textureGrad(tex, uv.xy, gx, gy);
}
