#version 330
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): 3D texture with trilinear filtering, clamp to edge, and textureSize
layout(binding = 1) uniform sampler3D vol;
layout(location = 0) in vec4 uvw;
layout(location = 0) out vec4 color;
void main() {
    vec4 s = texture(vol, uvw.xyz);
    color = vec4(s.xyz, s.w + float(textureSize(vol, 0).z));
}
