// Drops a file on an X11 window as a file manager does, through the XDND
// protocol (version 5): enter with the text/uri-list type, a position over
// the window, the drop, the file's URI handed over as the XdndSelection, and
// the target's XdndFinished awaited. For the window tests: xdotool can move
// and click, but it cannot drag a file.
//   navscope_xdnd_drop WINDOW X Y PATH   (X, Y: pixels in the window)
// Exit code 0 once the target has taken the drop, 1 otherwise.
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <poll.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

constexpr long kXdndVersion = 5;
/// How long to wait for each answer from the target. [milliseconds]
constexpr int kTimeoutMs = 5000;

struct Atoms {
  Atom aware, enter, position, status, drop, leave, finished, selection, actionCopy, uriList;
  explicit Atoms(Display* display)
      : aware(XInternAtom(display, "XdndAware", False)),
        enter(XInternAtom(display, "XdndEnter", False)),
        position(XInternAtom(display, "XdndPosition", False)),
        status(XInternAtom(display, "XdndStatus", False)),
        drop(XInternAtom(display, "XdndDrop", False)),
        leave(XInternAtom(display, "XdndLeave", False)),
        finished(XInternAtom(display, "XdndFinished", False)),
        selection(XInternAtom(display, "XdndSelection", False)),
        actionCopy(XInternAtom(display, "XdndActionCopy", False)),
        uriList(XInternAtom(display, "text/uri-list", False)) {}
};

void sendMessage(Display* display, Window target, Atom type, long l0, long l1, long l2, long l3,
                 long l4) {
  XEvent event{};
  event.xclient.type = ClientMessage;
  event.xclient.display = display;
  event.xclient.window = target;
  event.xclient.message_type = type;
  event.xclient.format = 32;
  event.xclient.data.l[0] = l0;
  event.xclient.data.l[1] = l1;
  event.xclient.data.l[2] = l2;
  event.xclient.data.l[3] = l3;
  event.xclient.data.l[4] = l4;
  XSendEvent(display, target, False, NoEventMask, &event);
  XFlush(display);
}

// The URI of a path, its bytes outside the unreserved set percent-encoded.
std::string fileUri(const std::string& path) {
  std::string uri = "file://";
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      uri += char(c);
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", c);
      uri += escaped;
    }
  }
  return uri + "\r\n";
}

// The XDND version the window speaks (its XdndAware property); 0 when it takes no drops.
long awareVersion(Display* display, Window window, Atom aware) {
  Atom type = None;
  int format = 0;
  unsigned long count = 0, after = 0;
  unsigned char* data = nullptr;
  long version = 0;
  if (XGetWindowProperty(display, window, aware, 0, 1, False, XA_ATOM, &type, &format, &count,
                         &after, &data) == Success &&
      type == XA_ATOM && format == 32 && count == 1) {
    version = long(*reinterpret_cast<const Atom*>(data));
  }
  if (data != nullptr) XFree(data);
  return version;
}

// Waits for the next event for at most kTimeoutMs; false on a timeout.
bool nextEvent(Display* display, XEvent& event) {
  if (XPending(display) == 0) {
    pollfd fd{ConnectionNumber(display), POLLIN, 0};
    if (poll(&fd, 1, kTimeoutMs) <= 0) return false;
  }
  XNextEvent(display, &event);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s WINDOW X Y PATH\n", argv[0]);
    return 2;
  }
  Display* display = XOpenDisplay(nullptr);
  if (display == nullptr) {
    std::fprintf(stderr, "xdnd_drop: cannot open the display\n");
    return 1;
  }
  const Window target = Window(std::strtoul(argv[1], nullptr, 0));
  const int x = std::atoi(argv[2]), y = std::atoi(argv[3]);
  const std::string uri = fileUri(argv[4]);
  const Atoms atoms(display);
  const long version = std::min(kXdndVersion, awareVersion(display, target, atoms.aware));
  if (version < 2) {
    std::fprintf(stderr, "xdnd_drop: the window takes no XDND drops (version %ld)\n", version);
    return 1;
  }
  const Window root = DefaultRootWindow(display);
  const Window source = XCreateSimpleWindow(display, root, 0, 0, 1, 1, 0, 0, 0);
  XSetSelectionOwner(display, atoms.selection, source, CurrentTime);
  int rootX = 0, rootY = 0;
  Window child = 0;
  XTranslateCoordinates(display, target, root, x, y, &rootX, &rootY, &child);

  sendMessage(display, target, atoms.enter, long(source), version << 24, long(atoms.uriList), None,
              None);
  sendMessage(display, target, atoms.position, long(source), 0,
              (long(rootX & 0xffff) << 16) | long(rootY & 0xffff), CurrentTime,
              long(atoms.actionCopy));
  const auto giveUp = [&](const char* why) {
    std::fprintf(stderr, "xdnd_drop: %s\n", why);
    sendMessage(display, target, atoms.leave, long(source), 0, 0, 0, 0);
    return 1;
  };
  bool dropped = false;
  XEvent event;
  while (nextEvent(display, event)) {
    if (event.type == ClientMessage && Atom(event.xclient.message_type) == atoms.status) {
      if ((event.xclient.data.l[1] & 1) == 0) return giveUp("the window refused the drop");
      if (!dropped) {
        dropped = true;
        sendMessage(display, target, atoms.drop, long(source), 0, CurrentTime, None, None);
      }
    } else if (event.type == SelectionRequest) {
      // The target asks for the dropped data: the URI list, on its property.
      const XSelectionRequestEvent& request = event.xselectionrequest;
      XEvent reply{};
      reply.xselection.type = SelectionNotify;
      reply.xselection.display = display;
      reply.xselection.requestor = request.requestor;
      reply.xselection.selection = request.selection;
      reply.xselection.target = request.target;
      reply.xselection.time = request.time;
      reply.xselection.property = None;
      if (request.target == atoms.uriList) {
        XChangeProperty(display, request.requestor, request.property, atoms.uriList, 8,
                        PropModeReplace, reinterpret_cast<const unsigned char*>(uri.data()),
                        int(uri.size()));
        reply.xselection.property = request.property;
      }
      XSendEvent(display, request.requestor, False, NoEventMask, &reply);
      XFlush(display);
    } else if (event.type == ClientMessage && Atom(event.xclient.message_type) == atoms.finished &&
               Window(event.xclient.data.l[0]) == target) {
      // The window read the drop. XDND 5 says bit 0 of l[1] tells whether it
      // took it, but GLFW 3.3 puts there the byte count of what it read, so
      // the bit is that length's parity: the caller checks what the app did.
      XDestroyWindow(display, source);
      XCloseDisplay(display);
      return 0;
    }
  }
  return giveUp("no answer from the window in time");
}
