#version 330 core
// Shared by every debug-draw pipeline: a world position, an RGBA8 colour and a
// size (point diameter or line width, in pixels).
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec4 aColor;
layout(location = 2) in float aSize;

uniform mat4 uView;
uniform mat4 uProjection;
// Moves geometry towards the eye so overlays win depth ties with what lies
// under them, at the same on-screen place. [metres]
uniform float uNudge;
uniform float uAlphaScale;

out Vertex {
  vec4 color;
  float size;
} vertexOut;

void main() {
  vec4 viewPosition = uView * vec4(aPosition, 1.0);
  float eyeDistance = length(viewPosition.xyz);
  if (eyeDistance > 0.0) {
    viewPosition.xyz *= 1.0 - min(uNudge, 0.5 * eyeDistance) / eyeDistance;
  }
  gl_Position = uProjection * viewPosition;
  gl_PointSize = aSize;
  vertexOut.color = vec4(aColor.rgb, aColor.a * uAlphaScale);
  vertexOut.size = aSize;
}
