// The recorder behind loss_trace: GCC's -finstrument-functions calls __cyg_profile_func_enter and
// __cyg_profile_func_exit around every instrumented function; trace_hooks.cpp keeps, while
// tracing is on, each distinct function entered and each distinct caller -> callee edge.
// This file is compiled without -finstrument-functions (see CMakeLists.txt): the recorder must
// never record itself.
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" {

/// One distinct function entered while tracing was on.
struct LossTraceFunction {
  void* address;    ///< the function's entry address, as the instrumentation passed it
  uint64_t calls;   ///< times entered while tracing was on
  uint32_t order;   ///< 0 for the first function entered, 1 for the next new one, ...
  int32_t depth;    ///< call depth at its first entry (the tracing thread: relative to where tracing began)
  uint32_t thread;  ///< 0: the thread that turned tracing on; 1, 2, ...: others, in the order they showed up
};

/// One distinct caller -> callee edge. The caller is the innermost instrumented function on the
/// thread's stack, so a call that went through uninstrumented code (Dawn calling back into
/// warden) shows up as an edge whose call site lies outside the program.
struct LossTraceEdge {
  void* caller;     ///< null when the callee was entered with no instrumented function below it
  void* callee;
  void* call_site;  ///< the return address of the first such call
  uint64_t calls;
  bool external;    ///< some call came from a shared library (not an inlined function's borrowed return address)
};

/// A point of the scenario (a callback heard), with how many distinct functions had run by then.
struct LossTraceMark {
  const char* label;  ///< a string literal
  uint32_t functions_before;
};

/// Turns recording on or off. Turning it on clears what an earlier run recorded; the calling
/// thread becomes thread 0 and its current depth depth 0.
void loss_trace_set_enabled(bool on);
/// Records a mark (only while tracing is on). `label` must outlive the program: a literal.
void loss_trace_mark(const char* label);

/// What was recorded, valid until the next loss_trace_set_enabled(true). Arrays in no order.
const LossTraceFunction* loss_trace_functions(size_t* count);
const LossTraceEdge* loss_trace_edges(size_t* count);
const LossTraceMark* loss_trace_marks(size_t* count);
/// Calls and edges that did not fit the fixed tables (0 unless the path grew past them).
uint64_t loss_trace_dropped();
}
