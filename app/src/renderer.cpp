#include "renderer.h"

#include <imgui.h>

#include <algorithm>

#include <glm/gtc/type_ptr.hpp>

#include "embedded.h"
#include "label_layout.h"

namespace nav::app {
namespace {

/// Labels beyond this many per batch are skipped: ImGui text is not free on a software rasteriser.
constexpr size_t kMaxTextsPerBatch = 2000;

ImU32 imguiColor(Color c) {
  return IM_COL32(c.r, c.g, c.b, c.a);
}

}  // namespace

Result<std::unique_ptr<Renderer>> Renderer::create() {
  const std::string_view vertex = embeddedFile("shaders/debug.vert");
  const std::string_view fragment = embeddedFile("shaders/debug.frag");
  const std::string_view pointFragment = embeddedFile("shaders/point.frag");
  const std::string_view thickGeometry = embeddedFile("shaders/thick_line.geom");
  auto plain = ShaderProgram::create(vertex, {}, fragment);
  if (!plain) return Result<std::unique_ptr<Renderer>>::failure("debug shader: " + plain.error());
  auto points = ShaderProgram::create(vertex, {}, pointFragment);
  if (!points) return Result<std::unique_ptr<Renderer>>::failure("point shader: " + points.error());
  auto thick = ShaderProgram::create(vertex, thickGeometry, fragment);
  if (!thick) {
    return Result<std::unique_ptr<Renderer>>::failure("thick-line shader: " + thick.error());
  }
  return Result<std::unique_ptr<Renderer>>::success(std::unique_ptr<Renderer>(
      new Renderer(std::move(plain).value(), std::move(points).value(), std::move(thick).value())));
}

Renderer::Renderer(ShaderProgram plain, ShaderProgram points, ShaderProgram thickLines)
    : m_plain(std::move(plain)), m_points(std::move(points)), m_thickLines(std::move(thickLines)) {}

void Renderer::beginFrame(const FrameView& view, const ScreenRect& area) {
  m_view = view;
  glViewport(0, 0, view.framebufferSize.x, view.framebufferSize.y);
  glDisable(GL_SCISSOR_TEST);
  glClearColor(0.11f, 0.12f, 0.14f, 1.0f);
  glClearDepth(1.0);
  glDepthMask(GL_TRUE);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  const glm::vec2 scale = glm::vec2(view.framebufferSize) / view.windowSize;
  const glm::ivec2 low = glm::ivec2(glm::floor(area.min * scale));
  const glm::ivec2 high = glm::ivec2(glm::ceil(area.max * scale));
  glEnable(GL_SCISSOR_TEST);
  // GL counts rows from the bottom.
  glScissor(low.x, view.framebufferSize.y - high.y, std::max(high.x - low.x, 0),
            std::max(high.y - low.y, 0));
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDepthFunc(GL_LEQUAL);
  glDisable(GL_CULL_FACE);
  glEnable(GL_PROGRAM_POINT_SIZE);
}

void Renderer::usePipeline(const ShaderProgram& program, const LayerStyle& style) const {
  glUseProgram(program.id());
  glUniformMatrix4fv(program.uniform("uView"), 1, GL_FALSE, glm::value_ptr(m_view.view));
  glUniformMatrix4fv(program.uniform("uProjection"), 1, GL_FALSE,
                     glm::value_ptr(m_view.projection));
  glUniform1f(program.uniform("uNudge"), style.nudge);
  glUniform1f(program.uniform("uAlphaScale"), style.alphaScale);
  glUniform2f(program.uniform("uViewportSize"), float(m_view.framebufferSize.x),
              float(m_view.framebufferSize.y));
}

void Renderer::drawBatch(const GpuBatch& batch, const LayerStyle& style) {
  drawGeometry(batch, style);
  drawTexts(batch.texts());
}

void Renderer::drawGeometry(const GpuBatch& batch, const LayerStyle& style) {
  if (style.depthTest) {
    glEnable(GL_DEPTH_TEST);
  } else {
    glDisable(GL_DEPTH_TEST);
  }
  glDepthMask(style.depthWrite ? GL_TRUE : GL_FALSE);
  if (style.cullBackFaces) {
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
  }
  glBindVertexArray(batch.vertexArray());
  if (batch.triangles().count > 0 || batch.lines().count > 0) {
    usePipeline(m_plain, style);
    if (batch.triangles().count > 0) {
      glDrawArrays(GL_TRIANGLES, batch.triangles().first, batch.triangles().count);
    }
    if (batch.lines().count > 0) glDrawArrays(GL_LINES, batch.lines().first, batch.lines().count);
  }
  if (batch.thickLines().count > 0) {
    usePipeline(m_thickLines, style);
    glDrawArrays(GL_LINES, batch.thickLines().first, batch.thickLines().count);
  }
  if (batch.points().count > 0) {
    usePipeline(m_points, style);
    glDrawArrays(GL_POINTS, batch.points().first, batch.points().count);
  }
  glBindVertexArray(0);
  glDepthMask(GL_TRUE);
  glDisable(GL_CULL_FACE);
}

void Renderer::flushOverlay() {
  if (m_overlay.empty()) return;
  m_overlayBatch.upload(m_overlay, GL_STREAM_DRAW);
  drawGeometry(m_overlayBatch,
               {.nudge = 0.0f, .depthTest = false, .depthWrite = false, .alphaScale = 0.3f});
  drawGeometry(m_overlayBatch, {.nudge = 0.05f, .depthTest = true, .depthWrite = true});
  drawTexts(m_overlayBatch.texts());
  m_overlay.clear();
}

void Renderer::flushOverlayOnTop() {
  if (m_overlay.empty()) return;
  m_overlayBatch.upload(m_overlay, GL_STREAM_DRAW);
  drawGeometry(m_overlayBatch, {.nudge = 0.0f, .depthTest = false, .depthWrite = false});
  drawTexts(m_overlayBatch.texts());
  m_overlay.clear();
}

void Renderer::line(const glm::vec3& a, const glm::vec3& b, Color color) {
  m_overlay.line(a, b, color);
}

void Renderer::triangle(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, Color color) {
  m_overlay.triangle(a, b, c, color);
}

void Renderer::point(const glm::vec3& p, float sizePixels, Color color) {
  m_overlay.point(p, sizePixels, color);
}

void Renderer::text(const glm::vec3& p, std::string_view text, Color color) {
  m_overlay.text(p, text, color);
}

void Renderer::drawTexts(const std::vector<DebugText>& texts) const {
  if (texts.empty()) return;
  const glm::vec3 eye = glm::vec3(glm::inverse(m_view.view)[3]);
  std::vector<LabelBox> boxes;
  std::vector<uint32_t> shown;
  for (uint32_t t = 0; t < texts.size() && shown.size() < kMaxTextsPerBatch; ++t) {
    const DebugText& text = texts[t];
    const std::optional<glm::vec2> projected = m_view.project(text.position);
    if (!projected) continue;
    const glm::vec2 at = *projected;
    if (at.x < -200.0f || at.y < -50.0f || at.x > m_view.windowSize.x ||
        at.y > m_view.windowSize.y) {
      continue;
    }
    const char* begin = text.text.data();
    const ImVec2 size = ImGui::CalcTextSize(begin, begin + text.text.size());
    boxes.push_back({at + glm::vec2(6.0f, -7.0f), glm::vec2(size.x + 1.0f, size.y + 1.0f),
                     glm::distance(eye, text.position)});
    shown.push_back(t);
  }
  ImDrawList* drawList = ImGui::GetBackgroundDrawList();
  for (const PlacedLabel& label : placeLabels(boxes)) {
    const DebugText& text = texts[shown[label.index]];
    const ImVec2 position(boxes[label.index].at.x, boxes[label.index].at.y);
    const char* begin = text.text.data();
    const char* end = begin + text.text.size();
    const uint8_t alpha = uint8_t(float(text.color.a) * label.alpha);
    drawList->AddText(ImVec2(position.x + 1.0f, position.y + 1.0f), IM_COL32(0, 0, 0, alpha), begin,
                      end);
    drawList->AddText(position, imguiColor(text.color.withAlpha(alpha)), begin, end);
  }
}

}  // namespace nav::app
