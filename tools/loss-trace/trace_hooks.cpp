// The -finstrument-functions hooks of loss_trace (trace_hooks.h). Compiled without the flag, and
// every function here is no_instrument_function besides: a hook that called an instrumented
// function would recurse. So nothing here calls into the standard library; the tables are plain
// fixed arrays under a spin lock made of GCC builtins.
#include "trace_hooks.h"

#include <link.h>

#include <cstring>

#define LOSS_TRACE_NO_TRACE __attribute__((no_instrument_function))

namespace {

// Sizes far above what one loss takes (a few thousand functions): a fuller table only drops.
constexpr size_t kFunctionSlots = size_t{1} << 16;
constexpr size_t kEdgeSlots = size_t{1} << 18;
constexpr size_t kMarkSlots = 64;
constexpr int kStackSlots = 1024;

// Open-addressed hash tables (a null key is an empty slot) and the compacted copies handed out.
LossTraceFunction g_functions[kFunctionSlots];
LossTraceEdge g_edges[kEdgeSlots];
LossTraceFunction g_function_list[kFunctionSlots];
LossTraceEdge g_edge_list[kEdgeSlots];
LossTraceMark g_marks[kMarkSlots];
size_t g_mark_count = 0;

bool g_enabled = false;        // read by every hook: __atomic builtins only
bool g_lock = false;           // the spin lock guarding everything below it
uint32_t g_next_order = 0;
uint32_t g_next_thread = 0;
uint64_t g_generation = 0;     // one more at each enable, so threads number themselves again
uint64_t g_dropped = 0;
int g_base_depth = 0;          // the enabling thread's depth when tracing began
uintptr_t g_program_lo = 0;    // the program's own loaded segments: a call site outside them is
uintptr_t g_program_hi = 0;    // a shared library (Dawn) calling back into warden

// Kept for every thread, on or off, so the depth and the caller are right when tracing begins
// deep inside a call.
thread_local int t_depth = 0;
thread_local void* t_stack[kStackSlots];
thread_local void* t_sites[kStackSlots];  // the call site each frame of t_stack reported
thread_local uint64_t t_generation = 0;
thread_local uint32_t t_thread = 0;
thread_local bool t_in_hook = false;

LOSS_TRACE_NO_TRACE void lock() {
  while (__atomic_test_and_set(&g_lock, __ATOMIC_ACQUIRE)) {
  }
}
LOSS_TRACE_NO_TRACE void unlock() { __atomic_clear(&g_lock, __ATOMIC_RELEASE); }

LOSS_TRACE_NO_TRACE size_t hash(uintptr_t a, uintptr_t b) {
  uint64_t h = (a >> 4) * 0x9E3779B97F4A7C15ull;
  h ^= (b >> 4) * 0xC2B2AE3D27D4EB4Full;
  return static_cast<size_t>(h ^ (h >> 29));
}

// The main program is the first object dl_iterate_phdr reports (its name is empty).
LOSS_TRACE_NO_TRACE int find_program(dl_phdr_info* info, size_t, void* done) {
  if (*static_cast<bool*>(done)) return 1;
  *static_cast<bool*>(done) = true;
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    const uintptr_t begin = info->dlpi_addr + ph.p_vaddr;
    if (begin < lo) lo = begin;
    if (begin + ph.p_memsz > hi) hi = begin + ph.p_memsz;
  }
  g_program_lo = lo;
  g_program_hi = hi;
  return 1;
}

// Under the lock. `depth` is the thread's depth before entering `fn`; `external`: a shared
// library called it.
LOSS_TRACE_NO_TRACE void record(void* fn, void* caller, void* call_site, int depth, bool external) {
  if (t_generation != g_generation) {
    t_generation = g_generation;
    t_thread = g_next_thread++;
  }
  size_t i = hash(reinterpret_cast<uintptr_t>(fn), 0) & (kFunctionSlots - 1);
  for (size_t probes = 0;; i = (i + 1) & (kFunctionSlots - 1)) {
    LossTraceFunction& slot = g_functions[i];
    if (slot.address == fn) {
      ++slot.calls;
      break;
    }
    if (slot.address == nullptr) {
      slot = {fn, 1, g_next_order++, t_thread == 0 ? depth - g_base_depth : depth, t_thread};
      break;
    }
    if (++probes == kFunctionSlots / 2) {  // too full to keep probing cheaply
      ++g_dropped;
      break;
    }
  }
  size_t e = hash(reinterpret_cast<uintptr_t>(fn), reinterpret_cast<uintptr_t>(caller)) & (kEdgeSlots - 1);
  for (size_t probes = 0;; e = (e + 1) & (kEdgeSlots - 1)) {
    LossTraceEdge& slot = g_edges[e];
    if (slot.callee == fn && slot.caller == caller) {
      ++slot.calls;
      if (external && !slot.external) slot.call_site = call_site;  // keep a library's call site
      slot.external = slot.external || external;
      return;
    }
    if (slot.callee == nullptr) {
      slot = {caller, fn, call_site, 1, external};
      return;
    }
    if (++probes == kEdgeSlots / 2) {
      ++g_dropped;
      return;
    }
  }
}

}  // namespace

extern "C" {

LOSS_TRACE_NO_TRACE void __cyg_profile_func_enter(void* fn, void* call_site) {
  const int depth = t_depth++;
  const bool below = depth > 0 && depth <= kStackSlots;
  void* caller = below ? t_stack[depth - 1] : nullptr;
  if (depth < kStackSlots) {
    t_stack[depth] = fn;
    t_sites[depth] = call_site;
  }
  if (!__atomic_load_n(&g_enabled, __ATOMIC_ACQUIRE) || t_in_hook) return;
  // An inlined function reports the return address of the function it was inlined into, the
  // same call site as that frame: only a call site of its own outside the program is a library
  // calling in (Dawn calling a callback).
  const uintptr_t site = reinterpret_cast<uintptr_t>(call_site);
  const bool external = (site < g_program_lo || site >= g_program_hi) && !(below && t_sites[depth - 1] == call_site);
  t_in_hook = true;
  lock();
  record(fn, caller, call_site, depth, external);
  unlock();
  t_in_hook = false;
}

LOSS_TRACE_NO_TRACE void __cyg_profile_func_exit(void*, void*) {
  if (t_depth > 0) --t_depth;
}

LOSS_TRACE_NO_TRACE void loss_trace_set_enabled(bool on) {
  if (!on) {
    __atomic_store_n(&g_enabled, false, __ATOMIC_RELEASE);
    lock();  // waits for a hook still recording on another thread
    unlock();
    return;
  }
  lock();
  std::memset(g_functions, 0, sizeof g_functions);
  std::memset(g_edges, 0, sizeof g_edges);
  g_mark_count = 0;
  g_next_order = 0;
  g_dropped = 0;
  ++g_generation;
  g_next_thread = 1;
  t_generation = g_generation;  // the enabling thread is thread 0
  t_thread = 0;
  g_base_depth = t_depth;
  if (g_program_hi == 0) {
    bool done = false;
    dl_iterate_phdr(find_program, &done);
  }
  unlock();
  __atomic_store_n(&g_enabled, true, __ATOMIC_RELEASE);
}

LOSS_TRACE_NO_TRACE void loss_trace_mark(const char* label) {
  if (!__atomic_load_n(&g_enabled, __ATOMIC_ACQUIRE)) return;
  lock();
  if (g_mark_count < kMarkSlots) g_marks[g_mark_count++] = {label, g_next_order};
  unlock();
}

LOSS_TRACE_NO_TRACE const LossTraceFunction* loss_trace_functions(size_t* count) {
  lock();
  size_t n = 0;
  for (const LossTraceFunction& f : g_functions) {
    if (f.address != nullptr) g_function_list[n++] = f;
  }
  unlock();
  *count = n;
  return g_function_list;
}

LOSS_TRACE_NO_TRACE const LossTraceEdge* loss_trace_edges(size_t* count) {
  lock();
  size_t n = 0;
  for (const LossTraceEdge& e : g_edges) {
    if (e.callee != nullptr) g_edge_list[n++] = e;
  }
  unlock();
  *count = n;
  return g_edge_list;
}

LOSS_TRACE_NO_TRACE const LossTraceMark* loss_trace_marks(size_t* count) {
  *count = g_mark_count;
  return g_marks;
}

LOSS_TRACE_NO_TRACE uint64_t loss_trace_dropped() { return g_dropped; }

}  // extern "C"
