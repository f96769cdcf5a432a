// What one Diagnostics::report costs once the store is full, so that every report drops the
// oldest entry:
//   diagnostics_report_full_ns/N   a store of capacity N (256, and 4,096 the default), already full
// A store that shifts its entries to drop the oldest pays O(N) per report; a ring pays the same
// whatever N is.
#include <benchmark/benchmark.h>

#include <string>

#include "warden/core/diagnostics.h"

namespace {

void diagnostics_report_full_ns(benchmark::State& state) {
  warden::Diagnostics store(static_cast<size_t>(state.range(0)));
  for (int64_t i = 0; i < state.range(0); ++i) store.info(warden::MessageId::Application, "filler");
  const std::string message = "tile z3/4/5 could not be loaded";
  for (auto _ : state) store.warning(warden::MessageId::Application, message);
}

}  // namespace

BENCHMARK(diagnostics_report_full_ns)->Arg(256)->Arg(4096)->MinTime(0.1);
