// Asks the X11 windows of one process to close, as a window manager does when
// the user clicks a window's close button: a WM_DELETE_WINDOW message under
// WM_PROTOCOLS. The window tests end navscope this way once it has nothing
// more to print, instead of waiting out its --frames.
//   navscope_close_window PID
// Exit code 0 when a window of PID (_NET_WM_PID) was asked, 1 otherwise.
#include <X11/Xatom.h>
#include <X11/Xlib.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// The process that owns `window` (its _NET_WM_PID), or 0.
unsigned long ownerOf(Display* display, Window window, Atom pidAtom) {
  Atom type = None;
  int format = 0;
  unsigned long count = 0, after = 0;
  unsigned char* data = nullptr;
  unsigned long pid = 0;
  if (XGetWindowProperty(display, window, pidAtom, 0, 1, False, XA_CARDINAL, &type, &format, &count,
                         &after, &data) == Success &&
      data != nullptr && format == 32 && count == 1)
    pid = *reinterpret_cast<unsigned long*>(data);
  if (data != nullptr) XFree(data);
  return pid;
}

// Every window under `root` whose owner is `pid`, depth first.
void collect(Display* display, Window root, Atom pidAtom, unsigned long pid,
             std::vector<Window>& out) {
  Window parent = 0, rootReturn = 0;
  Window* children = nullptr;
  unsigned int count = 0;
  if (!XQueryTree(display, root, &rootReturn, &parent, &children, &count)) return;
  for (unsigned int i = 0; i < count; ++i) {
    if (ownerOf(display, children[i], pidAtom) == pid) out.push_back(children[i]);
    collect(display, children[i], pidAtom, pid, out);
  }
  if (children != nullptr) XFree(children);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: navscope_close_window PID\n");
    return 2;
  }
  char* end = nullptr;
  const unsigned long pid = std::strtoul(argv[1], &end, 10);
  if (end == argv[1] || *end != '\0' || pid == 0) {
    std::fprintf(stderr, "navscope_close_window: not a process id: %s\n", argv[1]);
    return 2;
  }
  Display* display = XOpenDisplay(nullptr);
  if (display == nullptr) {
    std::fprintf(stderr, "navscope_close_window: cannot open the display\n");
    return 1;
  }
  const Atom pidAtom = XInternAtom(display, "_NET_WM_PID", False);
  const Atom protocols = XInternAtom(display, "WM_PROTOCOLS", False);
  const Atom deleteWindow = XInternAtom(display, "WM_DELETE_WINDOW", False);
  std::vector<Window> windows;
  collect(display, DefaultRootWindow(display), pidAtom, pid, windows);
  for (const Window window : windows) {
    XEvent event{};
    event.xclient.type = ClientMessage;
    event.xclient.display = display;
    event.xclient.window = window;
    event.xclient.message_type = protocols;
    event.xclient.format = 32;
    event.xclient.data.l[0] = long(deleteWindow);
    event.xclient.data.l[1] = CurrentTime;
    XSendEvent(display, window, False, NoEventMask, &event);
  }
  XFlush(display);
  XCloseDisplay(display);
  return windows.empty() ? 1 : 0;
}
