#pragma once
// What the window tests share: running navscope with --print-state and reading
// its lines, finding its window and clicking or typing into it with xdotool,
// and reading its screenshots. Needs NAVSCOPE_EXE, NAVSCOPE_XDOTOOL and
// NAVSCOPE_CLOSE_WINDOW defined.
#include <gtest/gtest.h>
#include <poll.h>
#include <stb_image.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace window_test {

// nav::colors::kPath; the test checks pixels, so it states the colour itself.
constexpr int kPathColor[3] = {255, 30, 200};

struct Pixel {
  int x, y;
};

struct Point3 {
  float x, y, z;
};

inline std::string shellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

/// Runs a command; returns its stdout, or nothing when it fails.
inline std::optional<std::string> capture(const std::string& command) {
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

inline bool run(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/// Press and release with pauses: ImGui 1.86 polls the mouse once per frame.
inline bool click(const std::string& window, Pixel at, int button) {
  const std::string xdotool = NAVSCOPE_XDOTOOL;
  const std::string b = std::to_string(button);
  return run(xdotool + " mousemove --window " + window + " " + std::to_string(at.x) + " " +
             std::to_string(at.y)) &&
         run("sleep 0.2") && run(xdotool + " mousedown " + b) && run("sleep 0.2") &&
         run(xdotool + " mouseup " + b) && run("sleep 0.3");
}

inline std::optional<Pixel> parseProbe(const std::string& line) {
  const size_t arrow = line.find("-> px ");
  if (line.rfind("probe ", 0) != 0 || arrow == std::string::npos) return std::nullopt;
  Pixel pixel;
  if (std::sscanf(line.c_str() + arrow, "-> px %d %d", &pixel.x, &pixel.y) != 2)
    return std::nullopt;
  return pixel;
}

/// The last "KEY X Y Z" line of the output.
inline std::optional<Point3> lastPoint(const std::vector<std::string>& lines,
                                       const std::string& key) {
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

inline float groundDistance(Point3 a, Point3 b) {
  return std::hypot(a.x - b.x, a.z - b.z);
}

class Image {
 public:
  explicit Image(const std::string& path) {
    m_pixels.reset(stbi_load(path.c_str(), &m_width, &m_height, nullptr, 3));
  }
  bool loaded() const { return m_pixels != nullptr; }

  /// The pixel's colour, red, green and blue.
  void colorAt(int x, int y, int (&color)[3]) const {
    const unsigned char* p = m_pixels.get() + (size_t(y) * size_t(m_width) + size_t(x)) * 3;
    for (int c = 0; c < 3; ++c)
      color[c] = p[c];
  }
  /// True when the pixel is within `tolerance` of `color` in every channel.
  bool isColor(int x, int y, const int (&color)[3], int tolerance = 6) const {
    const unsigned char* p = m_pixels.get() + (size_t(y) * size_t(m_width) + size_t(x)) * 3;
    for (int c = 0; c < 3; ++c) {
      if (std::abs(int(p[c]) - color[c]) > tolerance) return false;
    }
    return true;
  }
  /// Pixels of `color` in the whole image.
  int countColor(const int (&color)[3], int tolerance = 6) const {
    int count = 0;
    for (int y = 0; y < m_height; ++y) {
      for (int x = 0; x < m_width; ++x)
        count += isColor(x, y, color, tolerance) ? 1 : 0;
    }
    return count;
  }
  /// Pixels of `color` within `radius` of `center` (the whole image when radius < 0).
  int countColorNear(const int (&color)[3], Pixel center, int radius) const {
    int count = 0;
    for (int y = 0; y < m_height; ++y) {
      for (int x = 0; x < m_width; ++x) {
        const int dx = x - center.x, dy = y - center.y;
        if (radius >= 0 && dx * dx + dy * dy > radius * radius) continue;
        count += isColor(x, y, color) ? 1 : 0;
      }
    }
    return count;
  }
  /// Pixels of `color` in the rectangle [x0, x1) x [y0, y1).
  int countColorIn(const int (&color)[3], int x0, int y0, int x1, int y1) const {
    int count = 0;
    for (int y = std::max(y0, 0); y < std::min(y1, m_height); ++y) {
      for (int x = std::max(x0, 0); x < std::min(x1, m_width); ++x)
        count += isColor(x, y, color) ? 1 : 0;
    }
    return count;
  }
  /// Pixels in the rectangle [x0, x1) x [y0, y1) that differ from `other`'s
  /// by more than `tolerance` in some channel (all of them when the sizes differ).
  int countDifferentIn(const Image& other, int x0, int y0, int x1, int y1,
                       int tolerance = 24) const {
    if (other.m_width != m_width || other.m_height != m_height) return (x1 - x0) * (y1 - y0);
    int count = 0;
    for (int y = std::max(y0, 0); y < std::min(y1, m_height); ++y) {
      for (int x = std::max(x0, 0); x < std::min(x1, m_width); ++x) {
        const unsigned char* p =
            other.m_pixels.get() + (size_t(y) * size_t(m_width) + size_t(x)) * 3;
        const int color[3] = {p[0], p[1], p[2]};
        count += isColor(x, y, color, tolerance) ? 0 : 1;
      }
    }
    return count;
  }
  /// Path-coloured pixels within `radius` of `center` (the whole image when radius < 0).
  int countPath(Pixel center, int radius) const {
    return countColorNear(kPathColor, center, radius);
  }

 private:
  struct Free {
    void operator()(unsigned char* p) const { stbi_image_free(p); }
  };
  int m_width = 0, m_height = 0;
  std::unique_ptr<unsigned char, Free> m_pixels;
};

/// A navscope process whose stdout (--print-state) is read line by line.
class RunningApp {
 public:
  /// The shell prints its process id, then becomes navscope (exec): the id
  /// finish() needs to ask navscope's window to close.
  explicit RunningApp(const std::string& arguments)
      : m_command(shellQuote(NAVSCOPE_EXE) + " " + arguments),
        m_pipe(popen(("echo $$; exec " + m_command).c_str(), "r")) {
    if (m_pipe != nullptr && readLine()) {
      m_pid = m_lines.back().substr(0, m_lines.back().find('\n'));
      m_lines.clear();
    }
  }
  RunningApp(const RunningApp&) = delete;
  RunningApp& operator=(const RunningApp&) = delete;
  ~RunningApp() { finish(); }

  /// Reads one line (kept in lines()); false at the end of the output, or
  /// when `timeoutMs` (unless negative) passes without one.
  bool readLine(int timeoutMs = -1) {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    while (m_pipe != nullptr) {
      const size_t newline = m_pending.find('\n');
      if (newline != std::string::npos) {
        m_lines.push_back(m_pending.substr(0, newline + 1));
        m_pending.erase(0, newline + 1);
        return true;
      }
      if (m_ended) {
        if (m_pending.empty()) return false;
        m_lines.push_back(std::move(m_pending));
        m_pending.clear();
        return true;
      }
      int wait = -1;
      if (timeoutMs >= 0) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0) return false;
        wait = int(left.count());
      }
      pollfd ready{fileno(m_pipe), POLLIN, 0};
      const int polled = poll(&ready, 1, wait);
      if (polled < 0 && errno == EINTR) continue;
      if (polled == 0) return false;
      char buffer[4096];
      const ssize_t count = polled < 0 ? -1 : read(fileno(m_pipe), buffer, sizeof buffer);
      if (count < 0 && errno == EINTR) continue;
      if (count <= 0)
        m_ended = true;
      else
        m_pending.append(buffer, size_t(count));
    }
    return false;
  }
  /// Reads until a line starts with `prefix` and returns it; nothing at the end of the output.
  std::optional<std::string> waitFor(const std::string& prefix) {
    while (readLine()) {
      if (m_lines.back().rfind(prefix, 0) == 0) return m_lines.back();
    }
    return std::nullopt;
  }
  /// The first line since the launch that starts with `prefix`, already read or
  /// still to come. For what the app prints once at startup: the first frame's
  /// widgets and the first build or path come in either order.
  std::optional<std::string> waitForSinceLaunch(const std::string& prefix) {
    for (const std::string& line : m_lines)
      if (line.rfind(prefix, 0) == 0) return line;
    return waitFor(prefix);
  }
  /// The window's id once it is mapped (xdotool); empty when none shows in 20 s.
  static std::string findWindow(const std::string& title = "navscope") {
    const std::optional<std::string> found = capture("timeout 20 " + std::string(NAVSCOPE_XDOTOOL) +
                                                     " search --sync --name " + shellQuote(title));
    return found ? found->substr(0, found->find('\n')) : std::string();
  }
  /// Reads the rest and waits for the exit; returns the wait status. Once
  /// navscope has printed nothing for kQuietMs (what the test did has
  /// settled), its window is asked to close, as a user closes it: the last
  /// frame (and its --screenshot) follows at once, not after the rest of --frames.
  int finish() {
    constexpr int kQuietMs = 2000;
    if (m_pipe == nullptr) return m_status;
    bool asked = false;
    for (;;) {
      if (readLine(asked ? -1 : kQuietMs)) continue;
      if (m_ended) break;
      asked = true;
      if (!m_pid.empty()) run(std::string(NAVSCOPE_CLOSE_WINDOW) + " " + m_pid + " 2>/dev/null");
    }
    m_status = pclose(m_pipe);
    m_pipe = nullptr;
    return m_status;
  }
  bool exitedCleanly() const { return WIFEXITED(m_status) && WEXITSTATUS(m_status) == 0; }

  const std::vector<std::string>& lines() const { return m_lines; }
  std::string transcript() const {
    std::ostringstream transcript;
    transcript << m_command << "\n";
    for (const std::string& line : m_lines)
      transcript << "  " << line;
    return transcript.str();
  }

 private:
  std::string m_command;
  FILE* m_pipe;
  /// navscope's process id, as the shell printed it.
  std::string m_pid;
  /// Output read but not yet a whole line, and whether the output has ended.
  std::string m_pending;
  bool m_ended = false;
  std::vector<std::string> m_lines;
  int m_status = -1;
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
/// once its output settles (RunningApp::finish), or at --frames.
template <class Actions>
Session runSession(const std::string& arguments, size_t probeCount, Actions&& actions) {
  Session session;
  RunningApp app(arguments);
  while (session.probes.size() < probeCount && app.readLine()) {
    if (const std::optional<Pixel> probe = parseProbe(app.lines().back()))
      session.probes.push_back(*probe);
  }
  if (session.probes.size() == probeCount) {
    const std::string window = RunningApp::findWindow();
    if (!window.empty()) session.actionsDone = actions(window, session.probes);
  }
  session.status = app.finish();
  session.lines = app.lines();
  session.transcript = app.transcript();
  return session;
}

/// The usual actions: left click on the first probe (start), right click on the second (goal).
inline bool clickStartAndGoal(const std::string& window, const std::vector<Pixel>& probes) {
  return click(window, probes[0], 1) && click(window, probes[1], 3);
}

/// The window showed every probe, took the actions and quit cleanly.
inline ::testing::AssertionResult ranCleanly(const Session& session, size_t probeCount) {
  if (session.probes.size() != probeCount)
    return ::testing::AssertionFailure() << "no probe lines from\n" << session.transcript;
  if (!session.actionsDone)
    return ::testing::AssertionFailure() << "xdotool could not find or click the window";
  if (!(WIFEXITED(session.status) && WEXITSTATUS(session.status) == 0))
    return ::testing::AssertionFailure() << session.transcript;
  return ::testing::AssertionSuccess();
}

/// The length in a "path status=... length=L ..." line; negative when absent.
inline float printedPathLength(const std::string& line) {
  const size_t at = line.find("length=");
  return at == std::string::npos ? -1.0f : std::stof(line.substr(at + 7));
}

/// The last line starting with `prefix`, or "".
inline std::string lastLine(const std::vector<std::string>& lines, const std::string& prefix) {
  std::string last;
  for (const std::string& line : lines) {
    if (line.rfind(prefix, 0) == 0) last = line;
  }
  return last;
}

/// A private output folder and settings directory: a saved layout must not move the panels.
inline std::filesystem::path prepareOutput(const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path outputDir = fs::path(NAVSCOPE_TEST_OUTPUT_DIR) / name;
  fs::create_directories(outputDir);
  const fs::path config = outputDir / "config";
  fs::remove_all(config);
  setenv("XDG_CONFIG_HOME", config.c_str(), 1);
  return outputDir;
}

inline void requireDisplay() {
  const char* display = std::getenv("DISPLAY");
  ASSERT_TRUE(display != nullptr && *display != '\0')
      << "DISPLAY is not set: run under xvfb-run -a -s \"-screen 0 1280x720x24\" ctest ...";
}

/// The corners printed after the last path line ("corners X,Y,Z X,Y,Z ...").
inline std::vector<Point3> lastCorners(const std::vector<std::string>& lines) {
  std::vector<Point3> corners;
  std::istringstream in(lastLine(lines, "corners "));
  std::string word;
  in >> word;
  Point3 p;
  char comma1, comma2;
  while (in >> p.x >> comma1 >> p.y >> comma2 >> p.z)
    corners.push_back(p);
  return corners;
}

/// The printed start and goal lie within 0.3 m (on the ground) of where the clicks were aimed;
/// returns them for further checks (empty when either is missing).
inline std::optional<std::pair<Point3, Point3>> clickedAt(const Session& session, Point3 start,
                                                          Point3 goal) {
  const std::optional<Point3> printedStart = lastPoint(session.lines, "start");
  const std::optional<Point3> printedGoal = lastPoint(session.lines, "goal");
  EXPECT_TRUE(printedStart && printedGoal) << session.transcript;
  if (!printedStart || !printedGoal) return std::nullopt;
  EXPECT_LT(groundDistance(*printedStart, start), 0.3f) << session.transcript;
  EXPECT_LT(groundDistance(*printedGoal, goal), 0.3f) << session.transcript;
  return std::make_pair(*printedStart, *printedGoal);
}

}  // namespace window_test
