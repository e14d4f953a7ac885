// A rank that crashes right after its last collectives would take their
// records, still in the ring, down with it, and the coordinator would name
// the wrong collective as the one it never reached. The handler waits
// (bounded) until the sender has shipped everything queued before the
// crash, with a fresh heartbeat, then hands the signal on unchanged.
#include "State.h"

#include <csignal>
#include <ctime>

namespace lockstep::rt {

namespace {

constexpr int Signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr int WaitMs = 200;
struct sigaction Previous[std::size(Signals)];
State *Flushing = nullptr;

void onFatal(int Signal) {
  if (State *S = Flushing) {
    uint64_t Target = S->Records.pushed();
    uint64_t Beat = S->BeatsAsked.fetch_add(1) + 1;
    timespec Tick{0, 1000000};
    for (int Ms = 0; Ms < WaitMs && (S->Shipped.load() < Target || S->BeatsDone.load() < Beat);
         ++Ms)
      nanosleep(&Tick, nullptr); // async-signal-safe; the sender does the work
  }
  // The previous disposition takes over; the signal, blocked while this
  // handler runs, is delivered again as soon as it returns.
  for (size_t I = 0; I < std::size(Signals); ++I)
    if (Signals[I] == Signal)
      sigaction(Signal, &Previous[I], nullptr);
  raise(Signal);
}

} // namespace

void installCrashFlush(State &S) {
  Flushing = &S;
  struct sigaction Action{};
  Action.sa_handler = onFatal;
  sigemptyset(&Action.sa_mask);
  Action.sa_flags = SA_ONSTACK;
  for (size_t I = 0; I < std::size(Signals); ++I)
    sigaction(Signals[I], &Action, &Previous[I]);
}

} // namespace lockstep::rt
