// Runs the real navscope window on the funnel level, clicks a start (left
// button) and a goal (right button) on floor points located with --probe, and
// checks the screenshot and the printed state: the path colour must appear
// around both clicked places, and the path must be reported found.
#include <gtest/gtest.h>
#include <stb_image.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

// nav::colors::kPath; the test checks pixels, so it states the colour itself.
constexpr int kPathColor[3] = {255, 30, 200};

struct Pixel {
  int x, y;
};

struct Point3 {
  float x, y, z;
};

std::string shellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

/// Runs a command; returns its stdout, or nothing when it fails.
std::optional<std::string> capture(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string output;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr)
    output += buffer;
  const int status = pclose(pipe);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return output;
}

bool run(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/// Press and release with pauses: ImGui 1.86 polls the mouse once per frame.
bool click(const std::string& window, Pixel at, int button) {
  const std::string xdotool = NAVSCOPE_XDOTOOL;
  const std::string b = std::to_string(button);
  return run(xdotool + " mousemove --window " + window + " " + std::to_string(at.x) + " " +
             std::to_string(at.y)) &&
         run("sleep 0.2") && run(xdotool + " mousedown " + b) && run("sleep 0.2") &&
         run(xdotool + " mouseup " + b) && run("sleep 0.3");
}

std::optional<Pixel> parseProbe(const std::string& line) {
  const size_t arrow = line.find("-> px ");
  if (line.rfind("probe ", 0) != 0 || arrow == std::string::npos) return std::nullopt;
  Pixel pixel;
  if (std::sscanf(line.c_str() + arrow, "-> px %d %d", &pixel.x, &pixel.y) != 2)
    return std::nullopt;
  return pixel;
}

/// The last "KEY X Y Z" line of the output.
std::optional<Point3> lastPoint(const std::vector<std::string>& lines, const std::string& key) {
  std::optional<Point3> found;
  for (const std::string& line : lines) {
    Point3 p;
    if (line.rfind(key + " ", 0) == 0 &&
        std::sscanf(line.c_str() + key.size(), " %f %f %f", &p.x, &p.y, &p.z) == 3) {
      found = p;
    }
  }
  return found;
}

float groundDistance(Point3 a, Point3 b) {
  return std::hypot(a.x - b.x, a.z - b.z);
}

class Image {
 public:
  explicit Image(const std::string& path) {
    m_pixels.reset(stbi_load(path.c_str(), &m_width, &m_height, nullptr, 3));
  }
  bool loaded() const { return m_pixels != nullptr; }

  bool isPath(int x, int y) const {
    const unsigned char* p = m_pixels.get() + (size_t(y) * size_t(m_width) + size_t(x)) * 3;
    for (int c = 0; c < 3; ++c) {
      if (std::abs(int(p[c]) - kPathColor[c]) > 6) return false;
    }
    return true;
  }
  /// Path-coloured pixels within `radius` of `center` (the whole image when radius < 0).
  int countPath(Pixel center, int radius) const {
    int count = 0;
    for (int y = 0; y < m_height; ++y) {
      for (int x = 0; x < m_width; ++x) {
        const int dx = x - center.x, dy = y - center.y;
        if (radius >= 0 && dx * dx + dy * dy > radius * radius) continue;
        count += isPath(x, y) ? 1 : 0;
      }
    }
    return count;
  }

 private:
  struct Free {
    void operator()(unsigned char* p) const { stbi_image_free(p); }
  };
  int m_width = 0, m_height = 0;
  std::unique_ptr<unsigned char, Free> m_pixels;
};

TEST(WindowClickPath, ClicksSetStartAndGoalAndTheFoundPathIsDrawnBetweenThem) {
  const char* display = std::getenv("DISPLAY");
  ASSERT_TRUE(display != nullptr && *display != '\0')
      << "DISPLAY is not set: run under xvfb-run -a -s \"-screen 0 1280x720x24\" ctest ...";

  namespace fs = std::filesystem;
  const fs::path outputDir = fs::path(NAVSCOPE_TEST_OUTPUT_DIR) / "window_click_path";
  fs::create_directories(outputDir);
  const fs::path screenshot = outputDir / "after_clicks.png";
  fs::remove(screenshot);
  // A private settings directory: the user's saved layout must not move the panels.
  const fs::path config = outputDir / "config";
  fs::remove_all(config);
  setenv("XDG_CONFIG_HOME", config.c_str(), 1);

  // Lane 2 and lane 4 of the serpentine; the path between them winds around two
  // baffles. The app starts with a short path far from both (in lane 5), so the
  // path colour near the clicked places can only come from the clicks.
  const Point3 start{6.0f, 0.0f, 2.0f};
  const Point3 goal{14.0f, 0.0f, 2.0f};
  const std::string level = std::string(NAVSCOPE_ASSETS_DIR) + "/funnel.obj";
  ASSERT_TRUE(fs::exists(level)) << level;
  const std::string command = shellQuote(NAVSCOPE_EXE) + " " + shellQuote(level) +
                              " --size 1280x720 --print-state --frames 420"
                              " --start 18,0,1.5 --goal 18,0,3"
                              " --probe 6,0,2 --probe 14,0,2 --screenshot " +
                              shellQuote(screenshot.string());
  FILE* app = popen(command.c_str(), "r");
  ASSERT_NE(app, nullptr) << command;

  std::vector<std::string> lines;
  std::vector<Pixel> probes;
  char buffer[1024];
  while (probes.size() < 2 && std::fgets(buffer, sizeof buffer, app) != nullptr) {
    lines.emplace_back(buffer);
    if (const std::optional<Pixel> probe = parseProbe(lines.back())) probes.push_back(*probe);
  }
  bool clicked = false;
  if (probes.size() == 2) {
    const std::optional<std::string> found =
        capture("timeout 20 " + std::string(NAVSCOPE_XDOTOOL) + " search --sync --name navscope");
    if (found && !found->empty()) {
      const std::string window = found->substr(0, found->find('\n'));
      clicked = click(window, probes[0], 1) && click(window, probes[1], 3);
    }
  }
  while (std::fgets(buffer, sizeof buffer, app) != nullptr)
    lines.emplace_back(buffer);
  const int status = pclose(app);
  std::ostringstream transcript;
  for (const std::string& line : lines)
    transcript << "  " << line;

  ASSERT_EQ(probes.size(), 2u) << "no probe lines from\n  " << command << "\n" << transcript.str();
  ASSERT_TRUE(clicked) << "xdotool could not find or click the window";
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << transcript.str();

  const std::optional<Point3> printedStart = lastPoint(lines, "start");
  const std::optional<Point3> printedGoal = lastPoint(lines, "goal");
  ASSERT_TRUE(printedStart && printedGoal) << transcript.str();
  EXPECT_LT(groundDistance(*printedStart, start), 0.3f) << transcript.str();
  EXPECT_LT(groundDistance(*printedGoal, goal), 0.3f) << transcript.str();
  ASSERT_FALSE(lines.empty());
  std::string lastPath;
  for (const std::string& line : lines) {
    if (line.rfind("path ", 0) == 0) lastPath = line;
  }
  EXPECT_EQ(lastPath.rfind("path status=found ", 0), 0u) << transcript.str();

  const Image image(screenshot.string());
  ASSERT_TRUE(image.loaded()) << screenshot;
  // A 4-pixel line leaving each place covers well over 40 pixels within 30 of it.
  EXPECT_GE(image.countPath(probes[0], 30), 40) << "start at " << probes[0].x << "," << probes[0].y;
  EXPECT_GE(image.countPath(probes[1], 30), 40) << "goal at " << probes[1].x << "," << probes[1].y;
  EXPECT_GE(image.countPath({0, 0}, -1), 1000) << "the whole path";
}

}  // namespace
