#version 330
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_gpu_shader5 : require
// The GL form of expand.geom (GLSL 3.30 with extensions), whose softpipe TGSI is expand.tgsi.
// Triangles in, two invocations each emitting the triangle moved by the invocation id, with
// each colour scaled by the primitive id plus one; reads gl_in[i] with a dynamic i.
layout(triangles) in;
layout(triangle_strip, max_vertices = 6) out;
layout(invocations = 2) in;
layout(location = 0) in vec4 color[];
layout(location = 0) out vec4 ocolor;
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position + vec4(float(gl_InvocationID), 0.0, 0.0, 0.0);
        ocolor = color[i] * float(gl_PrimitiveIDIn + 1);
        EmitVertex();
    }
    EndPrimitive();
}
