// Copyright (c) Sascha Willems. SPDX-License-Identifier: MIT
// From https://github.com/SaschaWillems/Vulkan/blob/a048bc2635f1f3513a6ee6b604aefb1d34f7812b/shaders/glsl/texturemipmapgen/texture.frag
// (the file has no header; the repository is MIT-licensed, see its LICENSE.md).
// Adapted for agxc's corpus: the separate texture and sampler array (indexed by a uniform)
// became one combined image sampler, so the corpus format can describe it; marked "agxc:".
#version 450

// agxc: was layout (set = 0, binding = 1) uniform texture2D textureColor;
// agxc: was layout (set = 0, binding = 2) uniform sampler samplers[3];
layout (set = 0, binding = 1) uniform sampler2D samplerColor;

layout (location = 0) in vec2 inUV;
layout (location = 1) in float inLodBias;
layout (location = 2) in vec3 inNormal;
layout (location = 3) in vec3 inViewVec;
layout (location = 4) in vec3 inLightVec;

layout (binding = 0) uniform UBO 
{
	mat4 projection;
	mat4 view;
	mat4 model;
	vec4 viewPos;
	float lodBias;
	int samplerIndex;
} ubo;

layout (location = 0) out vec4 outFragColor;

void main() 
{
	// agxc: was texture(sampler2D(textureColor, samplers[ubo.samplerIndex]), inUV, inLodBias);
	vec4 color = texture(samplerColor, inUV, inLodBias);

	vec3 N = normalize(inNormal);
	vec3 L = normalize(inLightVec);
	vec3 V = normalize(inViewVec);
	vec3 R = reflect(L, N);
	vec3 diffuse = max(dot(N, L), 0.65) * vec3(1.0);
	float specular = pow(max(dot(R, V), 0.0), 16.0) * color.a;
	outFragColor = vec4(diffuse * color.rgb + specular, 1.0);	
}
