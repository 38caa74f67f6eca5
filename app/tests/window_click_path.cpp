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

/// What one run of the debugger printed, and where the probed points were.
struct Session {
  std::vector<std::string> lines;
  std::vector<Pixel> probes;
  bool actionsDone = false;
  int status = -1;
  std::string transcript;
};

/// Runs navscope with `arguments` (which include one --probe per point to click)
/// and, once every probe is printed, runs `actions` on its window. The run ends
/// by itself (--frames).
template <class Actions>
Session runSession(const std::string& arguments, size_t probeCount, Actions&& actions) {
  Session session;
  const std::string command = shellQuote(NAVSCOPE_EXE) + " " + arguments;
  FILE* app = popen(command.c_str(), "r");
  if (app == nullptr) return session;
  char buffer[4096];
  while (session.probes.size() < probeCount && std::fgets(buffer, sizeof buffer, app) != nullptr) {
    session.lines.emplace_back(buffer);
    if (const std::optional<Pixel> probe = parseProbe(session.lines.back()))
      session.probes.push_back(*probe);
  }
  if (session.probes.size() == probeCount) {
    const std::optional<std::string> found =
        capture("timeout 20 " + std::string(NAVSCOPE_XDOTOOL) + " search --sync --name navscope");
    if (found && !found->empty())
      session.actionsDone = actions(found->substr(0, found->find('\n')), session.probes);
  }
  while (std::fgets(buffer, sizeof buffer, app) != nullptr)
    session.lines.emplace_back(buffer);
  session.status = pclose(app);
  std::ostringstream transcript;
  transcript << command << "\n";
  for (const std::string& line : session.lines)
    transcript << "  " << line;
  session.transcript = transcript.str();
  return session;
}

/// The last line starting with `prefix`, or "".
std::string lastLine(const std::vector<std::string>& lines, const std::string& prefix) {
  std::string last;
  for (const std::string& line : lines) {
    if (line.rfind(prefix, 0) == 0) last = line;
  }
  return last;
}

/// A private output folder and settings directory: a saved layout must not move the panels.
std::filesystem::path prepareOutput(const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path outputDir = fs::path(NAVSCOPE_TEST_OUTPUT_DIR) / name;
  fs::create_directories(outputDir);
  const fs::path config = outputDir / "config";
  fs::remove_all(config);
  setenv("XDG_CONFIG_HOME", config.c_str(), 1);
  return outputDir;
}

void requireDisplay() {
  const char* display = std::getenv("DISPLAY");
  ASSERT_TRUE(display != nullptr && *display != '\0')
      << "DISPLAY is not set: run under xvfb-run -a -s \"-screen 0 1280x720x24\" ctest ...";
}

TEST(WindowClickPath, ClicksSetStartAndGoalAndTheFoundPathIsDrawnBetweenThem) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path screenshot = prepareOutput("window_click_path") / "after_clicks.png";
  fs::remove(screenshot);

  // Lane 2 and lane 4 of the serpentine; the path between them winds around two
  // baffles. The app starts with a short path far from both (in lane 5), so the
  // path colour near the clicked places can only come from the clicks.
  const Point3 start{6.0f, 0.0f, 2.0f};
  const Point3 goal{14.0f, 0.0f, 2.0f};
  const std::string level = std::string(NAVSCOPE_ASSETS_DIR) + "/funnel.obj";
  ASSERT_TRUE(fs::exists(level)) << level;
  const Session session = runSession(
      shellQuote(level) +
          " --size 1280x720 --print-state --frames 420 --start 18,0,1.5 --goal 18,0,3"
          " --probe 6,0,2 --probe 14,0,2 --screenshot " + shellQuote(screenshot.string()),
      2, [](const std::string& window, const std::vector<Pixel>& probes) {
        return click(window, probes[0], 1) && click(window, probes[1], 3);
      });
  ASSERT_EQ(session.probes.size(), 2u) << "no probe lines from\n" << session.transcript;
  ASSERT_TRUE(session.actionsDone) << "xdotool could not find or click the window";
  ASSERT_TRUE(WIFEXITED(session.status) && WEXITSTATUS(session.status) == 0) << session.transcript;

  const std::optional<Point3> printedStart = lastPoint(session.lines, "start");
  const std::optional<Point3> printedGoal = lastPoint(session.lines, "goal");
  ASSERT_TRUE(printedStart && printedGoal) << session.transcript;
  EXPECT_LT(groundDistance(*printedStart, start), 0.3f) << session.transcript;
  EXPECT_LT(groundDistance(*printedGoal, goal), 0.3f) << session.transcript;
  EXPECT_EQ(lastLine(session.lines, "path ").rfind("path status=found ", 0), 0u) << session.transcript;

  const Image image(screenshot.string());
  ASSERT_TRUE(image.loaded()) << screenshot;
  const std::vector<Pixel>& probes = session.probes;
  // A 4-pixel line leaving each place covers well over 40 pixels within 30 of it.
  EXPECT_GE(image.countPath(probes[0], 30), 40) << "start at " << probes[0].x << "," << probes[0].y;
  EXPECT_GE(image.countPath(probes[1], 30), 40) << "goal at " << probes[1].x << "," << probes[1].y;
  EXPECT_GE(image.countPath({0, 0}, -1), 1000) << "the whole path";
}

/// The corners printed after the last path line ("corners X,Y,Z X,Y,Z ...").
std::vector<Point3> lastCorners(const std::vector<std::string>& lines) {
  std::vector<Point3> corners;
  std::istringstream in(lastLine(lines, "corners "));
  std::string word;
  in >> word;
  Point3 p;
  char comma1, comma2;
  while (in >> p.x >> comma1 >> p.y >> comma2 >> p.z) corners.push_back(p);
  return corners;
}

// The default level: a click on the plaza (ground floor) and one on the East
// upper floor give a path up the stairs, and End steps the funnel to its goal.
TEST(WindowClickPath, ShowcaseGroundToUpperFloorClimbsTheStairsAndTheFunnelReachesTheGoal) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path screenshot = prepareOutput("window_showcase") / "after_clicks.png";
  fs::remove(screenshot);
  const std::string level = std::string(NAVSCOPE_ASSETS_DIR) + "/showcase.obj";
  ASSERT_TRUE(fs::exists(level)) << level;
  const Point3 start{20.0f, 0.0f, 24.0f};  // plaza, open sky
  const Point3 goal{32.0f, 3.0f, 6.0f};    // East upper floor
  const Session session = runSession(
      shellQuote(level) +
          " --size 1280x720 --print-state --frames 480 --start 2,0.05,38 --goal 2,0.05,39"
          " --probe 20,0,24 --probe 32,3,6 --screenshot " + shellQuote(screenshot.string()),
      2, [](const std::string& window, const std::vector<Pixel>& probes) {
        const std::string xdotool = NAVSCOPE_XDOTOOL;
        return click(window, probes[0], 1) && click(window, probes[1], 3) &&
               run(xdotool + " key --window " + window + " End") && run("sleep 0.5");
      });
  ASSERT_EQ(session.probes.size(), 2u) << "no probe lines from\n" << session.transcript;
  ASSERT_TRUE(session.actionsDone) << "xdotool could not find or click the window";
  ASSERT_TRUE(WIFEXITED(session.status) && WEXITSTATUS(session.status) == 0) << session.transcript;

  const std::optional<Point3> printedStart = lastPoint(session.lines, "start");
  const std::optional<Point3> printedGoal = lastPoint(session.lines, "goal");
  ASSERT_TRUE(printedStart && printedGoal) << session.transcript;
  EXPECT_LT(groundDistance(*printedStart, start), 0.3f) << session.transcript;
  EXPECT_LT(groundDistance(*printedGoal, goal), 0.3f) << session.transcript;
  EXPECT_NEAR(printedGoal->y, 3.0f, 0.1f) << "the goal click must land on the upper floor";
  EXPECT_EQ(lastLine(session.lines, "path ").rfind("path status=found ", 0), 0u) << session.transcript;

  // The stairs climb from (x 4..6.4, z 17) up to (x 4..6.4, z 12.1): the path
  // must turn there, at the bottom or the top of the flight.
  const std::vector<Point3> corners = lastCorners(session.lines);
  ASSERT_GE(corners.size(), 3u) << session.transcript;
  bool onStairs = false;
  for (const Point3& c : corners)
    onStairs |= c.x > 3.5f && c.x < 7.0f && c.z > 11.0f && c.z < 18.5f;
  EXPECT_TRUE(onStairs) << session.transcript;

  // End jumps the funnel panel to its last step: the goal.
  const std::string funnel = lastLine(session.lines, "funnel ");
  unsigned shown = 0, total = 0;
  ASSERT_EQ(std::sscanf(funnel.c_str(), "funnel step=%u/%u", &shown, &total), 2) << session.transcript;
  EXPECT_EQ(shown, total) << session.transcript;
  EXPECT_NE(funnel.find("event=goal"), std::string::npos) << session.transcript;

  const Image image(screenshot.string());
  ASSERT_TRUE(image.loaded()) << screenshot;
  EXPECT_GE(image.countPath(session.probes[0], 30), 40);
  EXPECT_GE(image.countPath(session.probes[1], 30), 40);
}

}  // namespace
