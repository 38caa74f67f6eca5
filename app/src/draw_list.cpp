#include "draw_list.h"

namespace nav::app {

void DrawList::line(const glm::vec3& a, const glm::vec3& b, Color color) {
  auto& target = m_lineWidth > 1.0f ? m_thickLines : m_lines;
  target.push_back({a, color, m_lineWidth});
  target.push_back({b, color, m_lineWidth});
}

void DrawList::triangle(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, Color color) {
  m_triangles.push_back({a, color, 0.0f});
  m_triangles.push_back({b, color, 0.0f});
  m_triangles.push_back({c, color, 0.0f});
}

void DrawList::point(const glm::vec3& p, float sizePixels, Color color) {
  m_points.push_back({p, color, sizePixels});
}

void DrawList::text(const glm::vec3& p, std::string_view text, Color color) {
  m_texts.push_back({p, std::string(text), color});
}

void DrawList::clear() {
  m_lineWidth = 1.0f;
  m_triangles.clear();
  m_lines.clear();
  m_thickLines.clear();
  m_points.clear();
  m_texts.clear();
}

bool DrawList::empty() const {
  return m_triangles.empty() && m_lines.empty() && m_thickLines.empty() && m_points.empty() &&
         m_texts.empty();
}

}  // namespace nav::app
