#pragma once
// A DrawList uploaded to one vertex buffer: triangles, thin lines, thick lines
// and points as consecutive ranges, drawn with one call per kind.
#include <glad/gl.h>

#include <vector>

#include "draw_list.h"

namespace nav::app {

class GpuBatch {
 public:
  struct Range {
    GLint first = 0;
    GLsizei count = 0;
  };

  /// Needs a current GL context.
  GpuBatch();
  GpuBatch(const GpuBatch&) = delete;
  GpuBatch& operator=(const GpuBatch&) = delete;
  ~GpuBatch();

  /// Replaces the contents. usage: GL_STATIC_DRAW for retained layers,
  /// GL_STREAM_DRAW for what changes every frame.
  void upload(const DrawList& list, GLenum usage);

  GLuint vertexArray() const { return m_vertexArray; }
  Range triangles() const { return m_triangles; }
  Range lines() const { return m_lines; }
  Range thickLines() const { return m_thickLines; }
  Range points() const { return m_points; }
  /// Text is drawn by ImGui, so it stays on the CPU.
  const std::vector<DebugText>& texts() const { return m_texts; }

 private:
  GLuint m_vertexArray = 0;
  GLuint m_vertexBuffer = 0;
  Range m_triangles, m_lines, m_thickLines, m_points;
  std::vector<DebugText> m_texts;
};

}  // namespace nav::app
