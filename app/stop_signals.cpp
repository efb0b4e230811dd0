#include "app/stop_signals.hpp"

#include <csignal>

namespace simapp::app {

namespace {

volatile std::sig_atomic_t received = 0;

void on_stop_signal(int signal) { received = signal; }

void handle(int signal, void (*handler)(int), int flags) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = flags;
  sigaction(signal, &action, nullptr);
}

}  // namespace

void install_signal_handlers() {
  // SA_RESETHAND: the second signal finds the default action and ends the process.
  handle(SIGTERM, on_stop_signal, SA_RESTART | SA_RESETHAND);
  handle(SIGINT, on_stop_signal, SA_RESTART | SA_RESETHAND);
  handle(SIGHUP, on_stop_signal, SA_RESTART | SA_RESETHAND);
  handle(SIGXFSZ, SIG_IGN, 0);
  handle(SIGPIPE, SIG_IGN, 0);
}

bool stop_requested() { return received != 0; }

const char* stop_signal_name() {
  switch (received) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGHUP: return "SIGHUP";
    default: return "";
  }
}

}  // namespace simapp::app
