#pragma once
// The jump placer: while armed, a left click sets a jump's takeoff and a right
// click its landing, adding a temporary one-way jump portal to a fixed-size
// bucket (the oldest expires first). The heading is the direction from takeoff
// to landing; the air time is what the ground distance takes at the set speed.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "nav/jump_portals.h"
#include "nav/nav_build.h"
#include "tool.h"

namespace nav::app {

/// A jump's heading (JumpSpec::heading, radians on the grid) in degrees in the
/// level file's frame, -180 .. 180.
float fileHeadingDegrees(float heading, const GridFrame& frame);

class JumpTool final : public Tool {
 public:
  static constexpr uint32_t kDefaultCapacity = 8;
  static constexpr uint32_t kMaxCapacity = 64;

  void onClick(const ClickEvent& click) override;
  /// Every jump in the bucket, and the takeoff waiting for its landing.
  void drawOverlay(DebugDraw& draw, const DrawOptions& options) const override;

  /// Places the jumps on a new build (those that no longer fit are dropped);
  /// nullptr: no build, jumps kept for the next one.
  void setBuild(std::shared_ptr<const NavBuild> build);
  /// Adds a jump between two points at the set speed; false (and a notice) when refused.
  bool add(const glm::vec3& takeoff, const glm::vec3& landing);
  void remove(uint32_t id);
  /// Drops every jump, and a takeoff waiting for its landing.
  void clear();
  /// A new bucket of this size, keeping the newest jumps that fit. [1, kMaxCapacity]
  void setCapacity(uint32_t capacity);

  bool armed() const { return m_armed; }
  void setArmed(bool armed);
  /// Ground speed in the air. [m/s, 0.5 .. 50]
  float speed() const { return m_speed; }
  void setSpeed(float speed);

  const JumpBucket& bucket() const { return m_bucket; }
  const std::optional<glm::vec3>& pendingTakeoff() const { return m_takeoff; }
  /// What went wrong with the last click; empty when nothing did.
  const std::string& notice() const { return m_notice; }
  /// The newest change ("jump 3 added ...", "jump 1 expired"); for the state printer.
  const std::string& lastEvent() const { return m_lastEvent; }
  /// Grows by one whenever the bucket changes: paths must be solved again.
  uint64_t revision() const { return m_revision; }

 private:
  void changed(std::string event);

  std::shared_ptr<const NavBuild> m_build;
  JumpBucket m_bucket{kDefaultCapacity};
  bool m_armed = false;
  float m_speed = 4.0f;
  std::optional<glm::vec3> m_takeoff;
  std::string m_notice;
  std::string m_lastEvent;
  uint64_t m_revision = 0;
};

}  // namespace nav::app
