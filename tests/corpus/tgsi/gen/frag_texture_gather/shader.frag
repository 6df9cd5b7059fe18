#version 330
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_shading_language_420pack : require
#extension GL_ARB_texture_gather : require
#extension GL_ARB_gpu_shader5 : require
// agxc TGSI corpus (MIT OR Apache-2.0): textureGather of each component (GL_ARB_texture_gather)
layout(binding = 0) uniform sampler2D tex;
layout(location = 0) in vec4 uv;
layout(location = 0) out vec4 color;
layout(location = 1) out vec4 alpha;
void main() {
    color = textureGather(tex, uv.xy);
    alpha = textureGather(tex, uv.yx, 3);
}
