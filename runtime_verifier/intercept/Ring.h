// A bounded multi-producer multi-consumer queue (D. Vyukov's design): the
// hot path of every intercepted call pushes one fixed-size record without a
// lock or a system call; when the queue is full the record is dropped and
// counted, so memory stays bounded and the program is never blocked.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>

namespace lockstep::rt {

template <class T> class Ring {
public:
  /// \p Capacity must be a power of two.
  explicit Ring(size_t Capacity) : Cells(new Cell[Capacity]), Mask(Capacity - 1) {
    for (size_t I = 0; I < Capacity; ++I)
      Cells[I].Seq.store(I, std::memory_order_relaxed);
  }

  bool push(const T &Value) {
    size_t Pos = Enqueue.load(std::memory_order_relaxed);
    for (;;) {
      Cell &C = Cells[Pos & Mask];
      size_t Seq = C.Seq.load(std::memory_order_acquire);
      intptr_t Diff = intptr_t(Seq) - intptr_t(Pos);
      if (Diff == 0) {
        if (Enqueue.compare_exchange_weak(Pos, Pos + 1, std::memory_order_relaxed)) {
          C.Data = Value;
          C.Seq.store(Pos + 1, std::memory_order_release);
          return true;
        }
      } else if (Diff < 0) {
        return false; // full
      } else {
        Pos = Enqueue.load(std::memory_order_relaxed);
      }
    }
  }

  bool pop(T &Out) {
    size_t Pos = Dequeue.load(std::memory_order_relaxed);
    for (;;) {
      Cell &C = Cells[Pos & Mask];
      size_t Seq = C.Seq.load(std::memory_order_acquire);
      intptr_t Diff = intptr_t(Seq) - intptr_t(Pos + 1);
      if (Diff == 0) {
        if (Dequeue.compare_exchange_weak(Pos, Pos + 1, std::memory_order_relaxed)) {
          Out = C.Data;
          C.Seq.store(Pos + Mask + 1, std::memory_order_release);
          return true;
        }
      } else if (Diff < 0) {
        return false; // empty
      } else {
        Pos = Dequeue.load(std::memory_order_relaxed);
      }
    }
  }

  size_t capacity() const { return Mask + 1; }
  /// Records claimed by producers so far (some may still be being written).
  size_t pushed() const { return Enqueue.load(std::memory_order_acquire); }

private:
  struct Cell {
    std::atomic<size_t> Seq;
    T Data;
  };
  std::unique_ptr<Cell[]> Cells;
  const size_t Mask;
  alignas(64) std::atomic<size_t> Enqueue{0};
  alignas(64) std::atomic<size_t> Dequeue{0};
};

} // namespace lockstep::rt
