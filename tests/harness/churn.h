// A frame loop that creates, uses, submits and destroys objects every frame through a
// Registry, the way an application that rebuilds per-frame state would. It proves DESIGN
// invariant 1 (no wait on the frame path) in a test and measures it in a benchmark, and it
// doubles as a worked example of the registry's frame-time calls. Test and benchmark
// scaffolding (the warden_harness library): not part of the installed library.
#pragma once

#include <cstdint>

#include "warden/core/result.h"
#include "warden/resources/registry.h"

namespace warden::resources {

struct ChurnReport {
  uint32_t frames = 0;
  uint64_t blocking_waits = 0;       // gpu::blocking_wait_count() after minus before
  size_t max_pending_releases = 0;   // the most objects waiting on a submission at once
  Serial last_submitted;
  Serial retired;                    // as seen by the last poll() of the loop
  LiveCounts live_after;             // what the loop left alive (its persistent objects)
};

// Runs `frames` frames. Each frame: a new uniform buffer, texture, view and bind group; a queue
// write to each; a copy recorded from the persistent buffer; touch; submit; destroy of the
// frame's objects; poll(). Persistent objects are destroyed at the end; deferred ones may
// still be pending then (the loop never waits for them).
Result<ChurnReport> run_churn_frames(Registry& registry, uint32_t frames);

}  // namespace warden::resources
