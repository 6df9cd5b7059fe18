// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: an environment lookup: reflect a view ray about a normal, sample a mipmapped
// cube map with a LOD bias and with textureLod, and a 2D texture with a bias from a uniform.
#version 450
layout(set = 0, binding = 0) uniform samplerCube env;
layout(set = 0, binding = 1) uniform sampler2D detail;
layout(set = 0, binding = 2) uniform Params { float bias; float lod; } params;
layout(location = 0) in vec3 normal;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 o;

void main() {
    vec3 v = vec3(0.0, 0.0, -1.0);
    vec3 r = reflect(v, normalize(normal));
    vec4 a = texture(env, r, params.bias);
    vec4 b = textureLod(env, -r, params.lod);
    vec4 d = texture(detail, uv, -params.bias);
    o = a * 0.5 + b * 0.25 + d * 0.25;
}
