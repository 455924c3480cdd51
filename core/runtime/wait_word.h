// A 32-bit word that threads sleep on until it changes. Natively this is std::atomic's
// wait/notify (a futex on Linux). WebAssembly's libc++ has no futex: its atomic wait polls
// with sleeps of up to half the time already waited, which adds milliseconds to every run,
// so there the word waits with memory.atomic.wait32 directly.
#pragma once

#include <atomic>
#include <cstdint>

#if defined(__EMSCRIPTEN_PTHREADS__)
#include <emscripten/threading.h>
#endif

namespace tessera::runtime {

class WaitWord {
 public:
  uint32_t load() const { return value_.load(); }

  // Returns when the word is no longer `seen`, or spuriously: callers re-check.
  void wait(uint32_t seen) {
#if defined(__EMSCRIPTEN_PTHREADS__)
    // Bounded, because the module's main thread must serve calls proxied to it (a
    // pthread's console output) now and then.
    constexpr int64_t kSliceNs = 50'000'000;
    __builtin_wasm_memory_atomic_wait32(address(), static_cast<int32_t>(seen), kSliceNs);
    if (emscripten_is_main_runtime_thread()) emscripten_main_thread_process_queued_calls();
#else
    value_.wait(seen);
#endif
  }

  // Changes the word and wakes every thread waiting on it.
  void bump() {
    value_.fetch_add(1);
#if defined(__EMSCRIPTEN_PTHREADS__)
    __builtin_wasm_memory_atomic_notify(address(), UINT32_MAX);
#else
    value_.notify_all();
#endif
  }

 private:
#if defined(__EMSCRIPTEN_PTHREADS__)
  int32_t* address() { return reinterpret_cast<int32_t*>(&value_); }
#endif
  std::atomic<uint32_t> value_{0};
};

}  // namespace tessera::runtime
