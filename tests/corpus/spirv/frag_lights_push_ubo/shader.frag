// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: Blinn-Phong over an array of point lights in a std140 uniform block (struct
// array, light count from push constants), with attenuation and a material in push constants.
#version 450
struct Light { vec4 position; vec3 color; float radius; };
layout(set = 0, binding = 0, std140) uniform Lights { Light lights[6]; vec4 ambient; } L;
layout(push_constant) uniform Material { vec4 albedo; float shininess; int count; } mat;
layout(location = 0) in vec3 pos;
layout(location = 1) in vec3 normal;
layout(location = 0) out vec4 o;

void main() {
    vec3 n = normalize(normal);
    vec3 v = normalize(vec3(0.0, 0.0, 5.0) - pos);
    vec3 acc = L.ambient.rgb * mat.albedo.rgb;
    for (int i = 0; i < mat.count; ++i) {
        vec3 d = L.lights[i].position.xyz - pos;
        float dist = length(d);
        if (dist > L.lights[i].radius) continue;
        vec3 l = d / dist;
        float att = 1.0 - smoothstep(0.0, L.lights[i].radius, dist);
        float diff = max(dot(n, l), 0.0);
        float spec = pow(max(dot(n, normalize(l + v)), 0.0), mat.shininess);
        acc += (diff * mat.albedo.rgb + spec) * L.lights[i].color * att;
    }
    o = vec4(acc, mat.albedo.a);
}
