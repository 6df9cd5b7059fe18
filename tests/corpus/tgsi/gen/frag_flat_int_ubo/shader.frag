#version 330
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): flat integer varyings, a uniform block and integer arithmetic in a fragment shader
layout(std140, binding = 4) uniform Palette { vec4 colors[4]; ivec4 masks; };
layout(location = 0) flat in ivec2 id;
layout(location = 1) flat in uint tag;
layout(location = 2) in vec2 p;
layout(location = 0) out vec4 color;
void main() {
    ivec2 c = ivec2(gl_FragCoord.xy);
    int k = ((c.x ^ c.y) + id.x) & masks.x;
    uint t = tag >> uint(id.y);
    color = colors[k] * p.x + vec4(float(t), float(k), float(c.x * id.y - c.y), p.y);
}
