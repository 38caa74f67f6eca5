#pragma once
// Steps panel: one timeline through how the path was found. First the search,
// one expansion at a time (the node expanded, the open list with g, h and f,
// the node taken next), then on into the funnel's string pulling, one event
// at a time (apex, left and right portals). Prev, Next, Play, Home, End and a
// slider; a new path starts at the funnel's first step, the finished search
// behind it, and Home goes back to the search's first expansion.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "frame_view.h"
#include "nav/search_replay.h"
#include "path_tool.h"

namespace nav::app {

class StepPanel {
 public:
  /// Follows a new path (to the funnel's first step) and advances while playing.
  void update(const PathAnswer* solution, uint64_t pathRevision, double now);
  void draw(const PathAnswer* solution, uint64_t pathRevision, double now);
  /// Left / Right step, Home / End jump to the ends, Space plays or pauses.
  /// keys: GLFW key codes pressed this frame.
  void handleKeys(const std::vector<int>& keys, const PathAnswer* solution, uint64_t pathRevision,
                  double now);
  /// The funnel step to draw; empty while the timeline is in the search or
  /// there is no recorded funnel.
  std::optional<size_t> funnelStep(const PathAnswer* solution, uint64_t pathRevision) const;
  /// The search as it stands at the current step, while the timeline is in
  /// the search; nullptr otherwise.
  const SearchReplay* searchStep(const PathAnswer* solution, uint64_t pathRevision) const;
  bool playing() const { return m_playing; }
  /// The user has moved along the timeline (or played it) since the path appeared.
  bool stepped() const { return m_stepped; }
  /// While in the search: the node under the mouse in the 3D view (within a
  /// few pixels of where it is drawn) gets a tooltip with its portal, g, h, f
  /// and parent. Call once a frame, after update().
  void hoverSearchNode(const FrameView& view, const PathAnswer* solution, uint64_t pathRevision);
  /// The node the last hoverSearchNode found under the mouse, if any.
  std::optional<uint32_t> hoveredNode() const { return m_hovered; }

 private:
  /// Rebuilds the replay for another path; false when there is none.
  bool follow(const PathAnswer* solution, uint64_t pathRevision);
  size_t expansions() const { return m_replay ? m_replay->expansions() : 0; }
  size_t length(const PathAnswer* solution) const;
  /// Moves to timeline position t (clamped), seeking the replay when in the search.
  void moveTo(const PathAnswer* solution, long long t);
  void togglePlay(const PathAnswer* solution, double now);
  void drawSearchStep() const;
  void drawFunnelStep(const PathAnswer& solution, size_t step) const;

  /// The timeline: [0, expansions) the search after t + 1 expansions, then the
  /// funnel's steps.
  size_t m_position = 0;
  bool m_playing = false;
  bool m_stepped = false;
  double m_lastAdvance = 0.0;
  uint64_t m_revision = ~0ull;
  std::unique_ptr<SearchReplay> m_replay;
  std::optional<uint32_t> m_hovered;
  /// What the hovered node was found for: it is looked for again only when
  /// the mouse, the camera or the step changed.
  struct Looked {
    glm::vec2 mouse{-1.0f};
    glm::mat4 view{0.0f}, projection{0.0f};
    uint64_t revision = ~0ull;
    size_t position = ~size_t(0);
    bool operator==(const Looked&) const = default;
  };
  Looked m_looked;
};

}  // namespace nav::app
