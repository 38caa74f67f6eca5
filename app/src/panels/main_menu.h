#pragma once
// The main menu bar along the window's top: File (the Files panel, reload,
// save .nav, export), View (frame the selection or the level, compare with
// Detour), Window (Reset layout) and Help. Each item names its shortcut; what
// the user picks comes back as a request for the App to carry out.
#include <map>
#include <string>

#include "widget_box.h"

namespace nav::app {

/// What the menu offers now.
struct MenuState {
  bool haveLevel = false;
  bool canSave = false;
  bool canExport = false;
  bool compareAvailable = false;
  bool compareOn = false;
  bool helpShown = false;
};

/// What was picked this frame.
struct MenuRequest {
  bool showFiles = false;
  bool reload = false;
  bool saveNav = false;
  bool exportPath = false;
  bool frame = false;
  bool toggleCompare = false;
  bool resetLayout = false;
  bool toggleHelp = false;
};

class MainMenu {
 public:
  MenuRequest draw(const MenuState& state);
  /// Where the last frame drew the menus and their items ("menu:Window",
  /// "menu:Reset layout"), for window tests.
  const std::map<std::string, WidgetBox>& widgets() const { return m_widgets; }

 private:
  /// Records the last item's place under "menu:LABEL".
  void noteWidget(const char* label);

  std::map<std::string, WidgetBox> m_widgets;
};

}  // namespace nav::app
