#include "warden/gpu/library.h"

#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "gpu/counting_procs.h"

namespace warden::gpu {
namespace {

constexpr const char* kDawnFileName = "libwebgpu_wrapper.so";

std::string executable_dir() {
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return {};
  buf[n] = '\0';
  return std::filesystem::path(buf).parent_path().string();
}

}  // namespace

std::vector<std::string> Library::candidate_paths(const LibraryOptions& options) {
  std::vector<std::string> paths;
  if (!options.path.empty()) {
    paths.push_back(options.path);
    return paths;
  }
  if (!options.ignore_environment) {
    if (const char* env = std::getenv(kLibraryEnvVar); env != nullptr && *env != '\0') {
      paths.emplace_back(env);
      return paths;  // an explicit choice is not second-guessed with a fallback
    }
  }
  if (auto dir = executable_dir(); !dir.empty()) {
    paths.push_back(dir + "/dawn/" + kDawnFileName);
  }
#ifdef WARDEN_DEFAULT_DAWN_DIR
  std::string build_copy = std::string(WARDEN_DEFAULT_DAWN_DIR) + "/" + kDawnFileName;
  if (paths.empty() || paths.back() != build_copy) paths.push_back(build_copy);
#endif
  paths.emplace_back(kDawnFileName);  // bare name: LD_LIBRARY_PATH and the system search
  return paths;
}

size_t proc_count() {
  size_t n = 0;
#define WARDEN_GPU_COUNT(Ret, Name, Params) ++n;
  WARDEN_GPU_PROCS(WARDEN_GPU_COUNT)
#undef WARDEN_GPU_COUNT
  return n;
}

std::vector<std::string> resolve_procs(void* handle, Procs& procs) {
  std::vector<std::string> missing;
#define WARDEN_GPU_RESOLVE(Ret, Name, Params)                                 \
  procs.Name = reinterpret_cast<Ret(*) Params>(::dlsym(handle, "wgpu" #Name)); \
  if (procs.Name == nullptr) missing.emplace_back("wgpu" #Name);
  WARDEN_GPU_PROCS(WARDEN_GPU_RESOLVE)
#undef WARDEN_GPU_RESOLVE
  return missing;
}

Result<std::shared_ptr<const Library>> Library::load(const LibraryOptions& options) {
  std::string ledger_problem;
  std::optional<bool> count = ledger_enabled(options.ledger, &ledger_problem);
  if (!count) return make_error(ErrorKind::InvalidArgument, MessageId::LedgerSettingInvalid, ledger_problem);
  std::vector<std::string> tried;
  for (const std::string& path : candidate_paths(options)) {
    ::dlerror();
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* why = ::dlerror();
      tried.push_back(fmt::format("  {}: {}", path, why ? why : "not loadable"));
      continue;
    }
    auto lib = std::shared_ptr<Library>(new Library());
    auto missing = resolve_procs(handle, lib->procs_);
    if (!missing.empty()) {
      // Not ours to keep: nothing of it is used, so it can be unloaded at once.
      ::dlclose(handle);
      std::string names;
      for (const auto& m : missing) names += (names.empty() ? "" : ", ") + m;
      return make_error(ErrorKind::SymbolMissing, MessageId::LibrarySymbolsMissing,
                        fmt::format("the WebGPU library {} lacks {} entry point(s) warden needs: {}. "
                                    "It is not a webgpu.h implementation with the ABI warden "
                                    "declares (see docs/adr/0001).",
                                    path, missing.size(), names));
    }
    // Report where it came from for `warden info`; dlinfo would give the resolved path but a
    // bare name is clear enough once the search order is documented.
    lib->path_ = path;
    if (*count) {
      auto counting = counting_procs(lib->procs_, path);
      if (!counting) {
        ::dlclose(handle);  // refused before anything of it was used
        return counting.error();
      }
      lib->procs_ = *counting;
      lib->counts_references_ = true;
    }
    return std::shared_ptr<const Library>(std::move(lib));
  }
  std::string list;
  for (const auto& t : tried) list += t + "\n";
  return make_error(ErrorKind::LibraryMissing, MessageId::LibraryNotLoaded,
                    fmt::format("no WebGPU library could be loaded. Looked in:\n{}"
                                "Fix: run `make demo` (or scripts/fetch-dawn.sh) to fetch Dawn into "
                                "build/dawn/, or set {}=/path/to/libwebgpu.so to use another "
                                "webgpu.h implementation.",
                                list, kLibraryEnvVar));
}

}  // namespace warden::gpu
