/// @file
/// Loading a webgpu.h implementation at run time (dlopen) and filling the proc table.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "warden/core/result.h"
#include "warden/gpu/abi_check.h"
#include "warden/gpu/ledger.h"
#include "warden/gpu/procs.h"

namespace warden::gpu {

/// The environment variable that names the library to load instead of the bundled Dawn. The
/// library must have the ABI of the header warden was built with; load() refuses one that does
/// not (docs/adr/0033).
inline constexpr const char* kLibraryEnvVar = "WARDEN_WEBGPU_LIB";

/// Where Library::load() looks and whether it counts references.
struct LibraryOptions {
  /// Tried first when set; the search below is skipped.
  std::string path{};
  /// When true, WARDEN_WEBGPU_LIB is ignored (tests that probe the search itself).
  bool ignore_environment = false;
  /// Whether procs() counts references in Ledger::process() (tests and debug builds) or holds
  /// the library's own entry points (free).
  LedgerMode ledger = LedgerMode::FromEnvironment;
};

/// A loaded implementation. The handle is never dlclose()d: Dawn keeps threads and static
/// state that outlive any object we could scope it to, so unloading is not safe.
class Library {
 public:
  /// Tries, in order: options.path, $WARDEN_WEBGPU_LIB, `<dir of this executable>/dawn/`,
  /// `<dir of a shared libwarden>/warden/dawn/` (where an install puts Dawn), then the bare
  /// file name: the dynamic linker's own search, which a program linking a static warden's
  /// package answers with its run path to `<prefix>/lib/warden/dawn/`. No path of warden's
  /// build is compiled in. The error names every place tried, what each one said, and how to
  /// fix it. The library found is checked against the header warden was built with
  /// (run_abi_check(), once per process and library) before anything else calls it; one that
  /// differs is refused with ErrorKind::AbiMismatch, naming what differs.
  static Result<std::shared_ptr<const Library>> load(const LibraryOptions& options = {});

  /// The candidate paths load() would try, in order (for messages and tests).
  static std::vector<std::string> candidate_paths(const LibraryOptions& options);

  /// The entry points, resolved (counting ones when counts_references()); an entry the library
  /// does not export is null.
  const Procs& procs() const { return procs_; }
  /// The entry points of the table the library does not export ("wgpuDeviceCreateExternalTexture"),
  /// in the table's order; none of them is one warden calls (load() refuses such a library).
  const std::vector<std::string>& absent_procs() const { return absent_procs_; }
  /// Succeeds when the library exports `entry` (with or without its "wgpu" prefix); otherwise
  /// fails with ErrorKind::SymbolMissing naming it and the library: what a caller of an
  /// entry warden does not need checks before calling it.
  Result<void> require(std::string_view entry) const;
  /// The file that was loaded (a bare name as the file the dynamic linker found).
  const std::string& path() const { return path_; }
  /// True when procs() counts references in Ledger::process().
  bool counts_references() const { return counts_references_; }
  /// What the load-time ABI check found (it passed, or load() would have failed).
  const AbiCheckReport& abi_check() const { return abi_check_; }

 private:
  Library() = default;
  Procs procs_;
  std::vector<std::string> absent_procs_;
  std::string path_;
  bool counts_references_ = false;
  AbiCheckReport abi_check_;
};

/// Resolves every entry point of the proc table from an open dlopen handle. Returns the names
/// of the required ones (WARDEN_GPU_PROCS) that are missing: empty when the library is usable.
/// `absent`, when given, receives the name of every entry that is missing.
std::vector<std::string> resolve_procs(void* handle, Procs& procs, std::vector<std::string>* absent = nullptr);

/// The number of entry points in the proc table (every WGPUProc of the header).
size_t proc_count();
/// The number of entry points warden calls itself, which a library must export (WARDEN_GPU_PROCS).
size_t required_proc_count();

}  // namespace warden::gpu
