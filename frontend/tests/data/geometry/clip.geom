#version 450
// Reads gl_in[0].gl_ClipDistance[0], which has no IR slot: the lift must refuse it.
layout(points) in;
layout(points, max_vertices = 1) out;
in gl_PerVertex {
    vec4 gl_Position;
    float gl_ClipDistance[1];
} gl_in[];
void main() {
    gl_Position = gl_in[0].gl_Position * gl_in[0].gl_ClipDistance[0];
    EmitVertex();
}
