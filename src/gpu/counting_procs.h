// The proc table with the reference ledger in front of Dawn (docs/adr/0011).
#pragma once

#include <string_view>

#include "warden/core/result.h"
#include "warden/gpu/procs.h"

namespace warden::gpu {

// A table whose every entry calls the same entry of `raw` and counts, in Ledger::process(),
// the references the call hands out (an object returned, an object delivered to a request
// callback, an AddRef) or gives back (a Release). One library per process can be counted:
// a second, different one (`path`) is an error naming both.
Result<Procs> counting_procs(const Procs& raw, std::string_view path);

}  // namespace warden::gpu
