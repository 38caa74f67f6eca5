#pragma once
// The GL side of nav::DebugDraw. Calls made on the renderer itself are the
// frame's dynamic overlay (path, funnel step, markers), re-uploaded every
// frame; retained content lives in GpuBatches drawn with drawBatch().
#include <memory>

#include <glm/glm.hpp>

#include "draw_list.h"
#include "frame_view.h"
#include "gpu_batch.h"
#include "nav/result.h"
#include "shader_program.h"

namespace nav::app {

/// How one batch meets the depth buffer.
struct LayerStyle {
  /// Moves the geometry towards the eye to win depth ties. [metres]
  float nudge = 0.0f;
  bool depthTest = true;
  bool depthWrite = true;
  /// Multiplies every vertex's alpha. [0..1]
  float alphaScale = 1.0f;
  /// Triangles seen from behind (wound clockwise on screen) are not drawn.
  bool cullBackFaces = false;
};

class Renderer final : public DebugDraw {
 public:
  /// Compiles the embedded shaders; needs a current GL 3.3 context.
  static Result<std::unique_ptr<Renderer>> create();

  /// Sets the viewport and matrices, clears the framebuffer and limits drawing to
  /// `area` (window coordinates): what the opaque panels hide is not worth a
  /// software rasteriser's time.
  void beginFrame(const FrameView& view, const ScreenRect& area);
  void drawBatch(const GpuBatch& batch, const LayerStyle& style);
  /// Draws what was recorded through DebugDraw since the last call, then forgets it:
  /// first faintly through everything, then normally, so overlays stay findable behind walls.
  void flushOverlay();
  /// The same, drawn over everything at full strength (what is being stepped through).
  void flushOverlayOnTop();

  void line(const glm::vec3& a, const glm::vec3& b, Color color) override;
  void triangle(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, Color color) override;
  void point(const glm::vec3& p, float sizePixels, Color color) override;
  void text(const glm::vec3& p, std::string_view text, Color color) override;
  /// Width of the overlay lines recorded from now on. [pixels]
  void setLineWidth(float pixels) { m_overlay.setLineWidth(pixels); }

 private:
  Renderer(ShaderProgram plain, ShaderProgram points, ShaderProgram thickLines);
  void usePipeline(const ShaderProgram& program, const LayerStyle& style) const;
  void drawGeometry(const GpuBatch& batch, const LayerStyle& style);
  void drawTexts(const std::vector<DebugText>& texts) const;

  ShaderProgram m_plain;
  ShaderProgram m_points;
  ShaderProgram m_thickLines;
  DrawList m_overlay;
  GpuBatch m_overlayBatch;
  FrameView m_view;
};

}  // namespace nav::app
