// What the registry fuzz targets share: a registry on the process's Null device, an empty
// submission, and the check that every Dawn reference taken during an input was given back.
#pragma once

#include <memory>

#include "warden/gpu/ledger.h"
#include "warden/resources/registry.h"

namespace warden::fuzz {

// A registry on null_device(); `options` as given.
std::unique_ptr<resources::Registry> make_fuzz_registry(resources::RegistryOptions options);

// Records and submits an empty command buffer through the registry; returns its serial.
Serial submit_empty(resources::Registry& registry);
// submit_empty, then a non-blocking poll.
void submit_and_poll(resources::Registry& registry);

// Counts Dawn references from its construction to its destruction: what is left over then is a
// reference warden forgot to give back (docs/adr/0011), and fails the run.
class LedgerBalance {
 public:
  LedgerBalance();
  ~LedgerBalance();
  LedgerBalance(const LedgerBalance&) = delete;
  LedgerBalance& operator=(const LedgerBalance&) = delete;

 private:
  gpu::ReferenceCounts at_start_;
};

}  // namespace warden::fuzz
