// Where a test finds a file or folder the build made or the source tree holds (test data, the
// `warden` program, helper libraries, the published Dawn builds): beside the running test
// program first, then at the path the build compiled in. A test suite carried to another
// machine (scripts/test-gpu.sh) lays everything it reads beside its programs, where the build's
// absolute paths do not exist; in the build tree nothing lies beside them and the compiled path
// is used, as before.
#pragma once

#include <string>
#include <string_view>

namespace warden::testing {

/// `built_path` as found: `<folder of this test program>/<built_path's last name>` when that
/// exists, else `built_path` itself.
std::string test_file(std::string_view built_path);

/// tests/data/ (WARDEN_TEST_DATA_DIR), found as test_file() finds it, with `relative` appended.
std::string test_data(std::string_view relative = {});

/// The `warden` program the CLI tests run (WARDEN_CLI_PATH), found as test_file() finds it.
std::string cli_path();

}  // namespace warden::testing
