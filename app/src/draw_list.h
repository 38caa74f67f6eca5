#pragma once
// CPU-side recording of debug-draw calls, sorted by primitive kind, ready to be
// uploaded to the GPU in one buffer.
#include <string>
#include <vector>

#include "nav/debug_draw.h"

namespace nav::app {

/// One vertex of every pipeline (20 bytes).
struct DebugVertex {
  glm::vec3 position;
  Color color;
  /// Point diameter or line width. [pixels]
  float size;
};

struct DebugText {
  glm::vec3 position;
  std::string text;
  Color color;
};

class DrawList final : public DebugDraw {
 public:
  void line(const glm::vec3& a, const glm::vec3& b, Color color) override;
  void triangle(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, Color color) override;
  void point(const glm::vec3& p, float sizePixels, Color color) override;
  void text(const glm::vec3& p, std::string_view text, Color color) override;

  /// Width of the lines recorded from now on. Lines wider than one pixel are
  /// drawn as quads by the thick-line pipeline. [pixels, > 0]
  void setLineWidth(float pixels) { m_lineWidth = pixels; }

  void clear();
  bool empty() const;

  const std::vector<DebugVertex>& triangles() const { return m_triangles; }
  const std::vector<DebugVertex>& lines() const { return m_lines; }
  const std::vector<DebugVertex>& thickLines() const { return m_thickLines; }
  const std::vector<DebugVertex>& points() const { return m_points; }
  const std::vector<DebugText>& texts() const { return m_texts; }

 private:
  float m_lineWidth = 1.0f;
  std::vector<DebugVertex> m_triangles;
  std::vector<DebugVertex> m_lines;
  std::vector<DebugVertex> m_thickLines;
  std::vector<DebugVertex> m_points;
  std::vector<DebugText> m_texts;
};

}  // namespace nav::app
