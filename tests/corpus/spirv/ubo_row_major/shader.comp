// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: a std140 uniform block with row-major and column-major matrices, a struct
// array with vec3 members and padding, indexed with values read from a storage buffer.
#version 450
layout(local_size_x = 32) in;
struct Light { vec3 dir; float power; ivec2 mode; };
layout(set = 0, binding = 0, std140) uniform Params {
    layout(row_major) mat3x4 rm;
    layout(column_major) mat4x3 cm;
    Light lights[4];
    vec2 scale;
    float bias[3];
} params;
layout(set = 0, binding = 1, std430) readonly buffer In { vec4 pts[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Out { vec4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 p = pts[i];
    uint k = uint(abs(p.w) * 100.0) & 3u;
    Light l = params.lights[k];
    vec3 t = p * params.rm;              // vec4 * mat3x4 -> vec3
    vec3 u = params.cm * p;              // mat4x3 * vec4 -> vec3
    float d = dot(normalize(l.dir), u) * l.power;
    o[i * 2u] = vec4(t * params.scale.x + u, d);
    o[i * 2u + 1u] = vec4(float(l.mode.x), float(l.mode.y * int(k)), params.bias[k % 3u], params.scale.y);
}
