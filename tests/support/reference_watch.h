// Every test program watches the Dawn references its tests take (docs/adr/0011): a test that
// ends holding references it took through the proc table fails and names the object types.
#pragma once

#include <string>

#include "warden/gpu/ledger.h"

namespace warden::testing {

// Called by the test programs' main before the tests run: turns the reference ledger on for
// this process (unless WARDEN_LEDGER already says otherwise) and installs the check.
void watch_dawn_references();

// References held for the whole program on purpose (the shared context's instance): they are
// no test's leak.
void keep_for_program(const gpu::ReferenceCounts& counts);

// The failure message for references left by one test, or empty when `left` is balanced.
std::string leftover_message(const gpu::ReferenceCounts& left, const std::string& where);

}  // namespace warden::testing
