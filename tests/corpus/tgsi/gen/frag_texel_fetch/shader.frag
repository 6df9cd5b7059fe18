#version 330
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): texelFetch at levels 0 and 1 and textureSize, with integer coordinates from gl_FragCoord
layout(binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 color;
layout(location = 1) out vec4 size_out;
void main() {
    ivec2 c = ivec2(gl_FragCoord.xy);
    vec4 l0 = texelFetch(tex, c % 8, 0);
    vec4 l1 = texelFetch(tex, (c / 2) % 4, 1);
    color = l0 - l1;
    size_out = vec4(textureSize(tex, 0), textureSize(tex, 1));
}
