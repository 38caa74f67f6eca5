#pragma once
// Help: every key and mouse action of the debugger, in a window over the
// view (F1 opens and closes it).

namespace nav::app {

/// Draws the help window while `open`; its close button clears `open`.
void drawHelp(bool& open);

}  // namespace nav::app
