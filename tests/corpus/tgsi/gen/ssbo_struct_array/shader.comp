#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): std430 array of structs: read, modify and write fields in place
layout(local_size_x = 32) in;
struct Particle {
    vec3 position;
    float mass;
    vec3 velocity;
    float age;
};
layout(std430, binding = 0) buffer P { Particle particles[]; };
layout(std430, binding = 1) buffer F { uint flags[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    Particle p = particles[i];
    vec3 gravity = vec3(0.0, -9.75, 0.0);
    p.velocity += gravity * 0.015625 / p.mass;
    p.position += p.velocity * 0.015625;
    if (p.position.y < 0.0) {
        p.position.y = -p.position.y;
        p.velocity.y = -p.velocity.y * 0.5;
        flags[i] |= 1u;
    }
    p.age += 0.015625;
    flags[i] += 0x100u;
    particles[i] = p;
}
