#include "nav/search.h"

namespace nav {

const char* toString(PathStatus status) {
  switch (status) {
    case PathStatus::Found:
      return "found";
    case PathStatus::Partial:
      return "partial";
    case PathStatus::StartOffMesh:
      return "start off mesh";
    case PathStatus::GoalOffMesh:
      return "goal off mesh";
    case PathStatus::Unreachable:
      return "unreachable";
    case PathStatus::TooManyExpansions:
      return "too many expansions";
  }
  return "unknown";
}

const char* toString(PortalPoint portalPoint) {
  switch (portalPoint) {
    case PortalPoint::Centroid:
      return "centroid";
    case PortalPoint::Midpoint:
      return "midpoint";
    case PortalPoint::Crossing:
      return "crossing";
    case PortalPoint::Exact:
      return "exact";
  }
  return "unknown";
}

std::optional<PortalPoint> portalPointNamed(std::string_view name) {
  for (PortalPoint point : kPortalPoints) {
    if (name == toString(point)) return point;
  }
  return std::nullopt;
}

}  // namespace nav
