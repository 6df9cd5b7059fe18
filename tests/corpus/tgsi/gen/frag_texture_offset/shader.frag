#version 330
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): textureOffset and texelFetchOffset with constant texel offsets
layout(binding = 0) uniform sampler2D tex;
layout(location = 0) in vec4 uv;
layout(location = 0) out vec4 color;
void main() {
    vec4 a = textureOffset(tex, uv.xy, ivec2(1, -2));
    vec4 b = texelFetchOffset(tex, ivec2(gl_FragCoord.xy) % 6, 0, ivec2(2, 1));
    color = a - b;
}
