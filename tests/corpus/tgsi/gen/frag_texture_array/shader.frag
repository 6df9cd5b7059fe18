#version 330
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): sampler2DArray: texture with a layer coordinate and texelFetch by layer
layout(binding = 0) uniform sampler2DArray layers;
layout(location = 0) in vec4 uv;
layout(location = 0) out vec4 color;
void main() {
    float layer = floor(uv.z * 4.0);
    vec4 a = texture(layers, vec3(uv.xy, layer));
    vec4 b = texelFetch(layers, ivec3(ivec2(gl_FragCoord.xy) % 4, 2), 0);
    color = a + b * 0.5 + vec4(0.0, 0.0, 0.0, float(textureSize(layers, 0).z));
}
