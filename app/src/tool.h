#pragma once
// The small interface every viewport tool shares (path tester now; cell
// inspector, device editor, agent spawner later): react to a click in the 3D
// view and draw an overlay. Each tool's panel lives in panels/.
#include <optional>

#include "frame_view.h"
#include "nav/collision.h"
#include "nav/debug_draw.h"
#include "nav/nav_draw.h"

namespace nav::app {

enum class MouseButton { Left, Right };

struct ClickEvent {
  MouseButton button;
  Ray ray;
  /// The level triangle under the cursor, if any.
  std::optional<RayHit> hit;
  bool shift = false;
  bool control = false;
};

class Tool {
 public:
  virtual ~Tool() = default;
  virtual void onClick(const ClickEvent& click) = 0;
  /// Dynamic drawing, redone every frame.
  virtual void drawOverlay(DebugDraw& draw, const DrawOptions& options) const = 0;
};

}  // namespace nav::app
