// The Query panel in the real window: ticking the key a locked door needs opens
// the way through it, a surface's cost slider changes the path, and Reset goes
// back to the level's own costs. The controls are clicked where the app says
// it drew them (--print-state's "widget" lines); the answers are checked
// against the CLI's for the same query.
#include "window_test_support.h"

namespace {

using namespace window_test;

// A "widget LABEL X0 Y0 X1 Y1" line's box.
struct Box {
  int x0, y0, x1, y1;
};

std::optional<Box> parseWidget(const std::string& line, const std::string& label) {
  std::istringstream in(line);
  std::string word, name;
  Box box{};
  if (!(in >> word >> name >> box.x0 >> box.y0 >> box.x1 >> box.y1)) return std::nullopt;
  if (word != "widget" || name != label) return std::nullopt;
  return box;
}

// Reads until the app has printed where it drew `label`, after the first path.
std::optional<Box> waitForWidget(RunningApp& app, const std::string& label) {
  bool solved = false;
  std::optional<Box> box;
  while ((!solved || !box) && app.readLine()) {
    const std::string& line = app.lines().back();
    solved = solved || line.rfind("path status=", 0) == 0;
    if (std::optional<Box> drawn = parseWidget(line, label)) box = drawn;
  }
  return box;
}

// The CLI's answer to the same query: "found 6.016" or "partial 2.554".
std::string cliAnswer(const std::string& level, const std::string& from, const std::string& to,
                      const std::string& extra) {
  const std::optional<std::string> json =
      capture(shellQuote(NAVSCOPE_CLI_EXE) + " query " + shellQuote(level) + " --from " + from +
              " --to " + to + " " + extra);
  if (!json) return "cli failed";
  const size_t status = json->find("\"status\":\"");
  const size_t length = json->find("\"length\":");
  if (status == std::string::npos || length == std::string::npos) return "no answer";
  const std::string name = json->substr(status + 10, json->find('"', status + 10) - status - 10);
  char text[64];
  std::snprintf(text, sizeof text, "%s %.3f", name.c_str(), std::stod(json->substr(length + 9)));
  return text;
}

// The last path line as the CLI would put it: "found 6.016".
std::string windowAnswer(const std::vector<std::string>& lines) {
  const std::string path = lastLine(lines, "path status=");
  const std::string status = path.substr(12, path.find(' ', 12) - 12);
  char text[64];
  std::snprintf(text, sizeof text, "%s %.3f", status.c_str(), double(printedPathLength(path)));
  return text;
}

Pixel centre(const Box& box) {
  return {(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2};
}

TEST(WindowQuery, TheKeyCheckboxOpensTheStoreroomDoor) {
  requireDisplay();
  prepareOutput("window_query_key");
  const std::string level = std::string(NAVSCOPE_ASSETS_DIR) + "/showcase.obj";
  const std::string from = "27.25,0,23", to = "27.25,0,17";  // either side of the storeroom door
  RunningApp app(shellQuote(level) + " --size 1280x720 --print-state --frames 500 --start " + from +
                 " --goal " + to);
  const std::optional<Box> key = waitForWidget(app, "key:red");
  ASSERT_TRUE(key) << app.transcript();
  EXPECT_EQ(lastLine(app.lines(), "path status=").rfind("path status=partial ", 0), 0u)
      << "locked without the key";
  const std::string window = RunningApp::findWindow();
  ASSERT_FALSE(window.empty());
  ASSERT_TRUE(click(window, centre(*key), 1));
  app.finish();
  ASSERT_TRUE(app.exitedCleanly()) << app.transcript();
  EXPECT_NE(lastLine(app.lines(), "query search=").find(" keys=red "), std::string::npos)
      << app.transcript();
  EXPECT_EQ(lastLine(app.lines(), "path status=").rfind("path status=found ", 0), 0u)
      << app.transcript();
  EXPECT_EQ(windowAnswer(app.lines()), cliAnswer(level, from, to, "--key red"));
  const std::string change = lastLine(app.lines(), "query change ");
  EXPECT_EQ(change.rfind("query change partial -> ", 0), 0u) << change;
}

TEST(WindowQuery, TheLavaCostSliderChangesThePathAndResetRestoresIt) {
  requireDisplay();
  prepareOutput("window_query_cost");
  const std::string level = std::string(NAVSCOPE_ASSETS_DIR) + "/showcase.obj";
  // Lava costs 25 a metre: the path goes round the pool; cheap lava is crossed.
  const std::string from = "23,0.05,2", to = "5,0.05,26";
  RunningApp app(shellQuote(level) + " --size 1280x720 --print-state --frames 600 --start " + from +
                 " --goal " + to);
  const std::optional<Box> slider = waitForWidget(app, "cost:lava");
  ASSERT_TRUE(slider) << app.transcript();
  const float before = printedPathLength(lastLine(app.lines(), "path status="));
  EXPECT_EQ(windowAnswer(app.lines()), cliAnswer(level, from, to, ""));
  std::optional<Box> reset;
  for (const std::string& line : app.lines()) {
    if (std::optional<Box> drawn = parseWidget(line, "reset")) reset = drawn;
  }
  ASSERT_TRUE(reset);
  const std::string window = RunningApp::findWindow();
  ASSERT_FALSE(window.empty());
  // The slider's left end is its lowest cost (0.1 a metre).
  ASSERT_TRUE(click(window, {slider->x0 + 2, (slider->y0 + slider->y1) / 2}, 1));
  while (app.readLine() && app.lines().back().rfind("query change ", 0) != 0) {
  }
  const std::string query = lastLine(app.lines(), "query search=");
  EXPECT_NE(query.find(" costs=lava:0.100 "), std::string::npos) << query;
  const float cheap = printedPathLength(lastLine(app.lines(), "path status="));
  EXPECT_LT(cheap, before - 0.3f) << "the path crosses the lava now";
  EXPECT_EQ(windowAnswer(app.lines()), cliAnswer(level, from, to, "--surface-cost lava=0.1"));
  ASSERT_TRUE(click(window, centre(*reset), 1));
  app.finish();
  ASSERT_TRUE(app.exitedCleanly()) << app.transcript();
  EXPECT_NE(lastLine(app.lines(), "query search=").find(" costs=- "), std::string::npos)
      << app.transcript();
  EXPECT_FLOAT_EQ(printedPathLength(lastLine(app.lines(), "path status=")), before);
}

}  // namespace
