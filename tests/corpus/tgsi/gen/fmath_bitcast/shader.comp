#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): floatBitsToInt, floatBitsToUint, intBitsToFloat, uintBitsToFloat
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { vec4 a[]; };
layout(std430, binding = 1) writeonly buffer R { uvec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 x = a[i];
    ivec4 bits = floatBitsToInt(x);
    uvec4 ubits = floatBitsToUint(x);
    float negated = intBitsToFloat(bits.x ^ int(0x80000000));
    float magnitude = uintBitsToFloat(ubits.y & 0x7fffffffu);
    r[2u * i + 0u] = uvec4(bits.xy, ubits.zw >> 3u);
    r[2u * i + 1u] = uvec4(floatBitsToUint(negated), floatBitsToUint(magnitude),
                           uint(bits.z < 0), ubits.w & 0x7f800000u);
}
