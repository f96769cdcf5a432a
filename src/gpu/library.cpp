#include "warden/gpu/library.h"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <type_traits>

#include <fmt/format.h>

#include "gpu/counting_procs.h"

namespace warden::gpu {
namespace {

constexpr const char* kDawnFileName = "libwebgpu_wrapper.so";
// Where an install puts Dawn, relative to the folder of the installed library
// (<prefix>/lib/warden/dawn/; CMakeLists.txt, WARDEN_DAWN_INSTALL_DIR).
constexpr const char* kInstalledDawnFolder = "warden/dawn";

std::string executable_dir() {
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return {};
  buf[n] = '\0';
  return std::filesystem::path(buf).parent_path().string();
}

// The folder of the shared libwarden this code is in; empty for a static warden, which is part
// of the executable (whose entry in the loader's list has an empty name).
std::string shared_library_dir() {
  Dl_info info;
  link_map* object = nullptr;
  if (::dladdr1(reinterpret_cast<void*>(&proc_count), &info, reinterpret_cast<void**>(&object),
                RTLD_DL_LINKMAP) == 0 ||
      object == nullptr || object->l_name == nullptr || object->l_name[0] == '\0') {
    return {};
  }
  return std::filesystem::path(object->l_name).lexically_normal().parent_path().string();
}

// The file the loader opened for a handle: a bare name resolved to where it was found.
std::string loaded_file(void* handle, const std::string& fallback) {
  link_map* object = nullptr;
  if (::dlinfo(handle, RTLD_DI_LINKMAP, &object) != 0 || object == nullptr || object->l_name == nullptr ||
      object->l_name[0] == '\0') {
    return fallback;
  }
  return std::filesystem::path(object->l_name).lexically_normal().string();  // a run path's "lib/../"
}

// The ABI check's report per loaded library (dlopen gives one handle per file however often it
// is opened), so that it runs once per process and library, not once per Context.
Result<AbiCheckReport> checked_abi(void* handle, const Procs& own_procs, const std::string& path) {
  static std::mutex mutex;
  static std::map<void*, AbiCheckReport> reports;
  std::lock_guard lock(mutex);
  auto found = reports.find(handle);
  if (found == reports.end()) found = reports.emplace(handle, run_abi_check(own_procs)).first;
  if (auto mismatch = abi_mismatch(found->second, path)) return *mismatch;
  return found->second;
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
  if (auto dir = shared_library_dir(); !dir.empty()) {
    paths.push_back(dir + "/" + kInstalledDawnFolder + "/" + kDawnFileName);
  }
  // Bare name: LD_LIBRARY_PATH, the run path of the program (or of a shared libwarden), the
  // system's folders. A static warden finds an installed Dawn this way: find_package(warden) and
  // warden.pc give the program a run path to <prefix>/lib/warden/dawn.
  paths.emplace_back(kDawnFileName);
  return paths;
}

size_t proc_count() {
  size_t n = 0;
#define WARDEN_GPU_COUNT(Ret, Name, Params) ++n;
  WARDEN_WEBGPU_PROCS(WARDEN_GPU_COUNT)
#undef WARDEN_GPU_COUNT
  return n;
}

size_t required_proc_count() {
  size_t n = 0;
#define WARDEN_GPU_COUNT(Ret, Name, Params) ++n;
  WARDEN_GPU_PROCS(WARDEN_GPU_COUNT)
#undef WARDEN_GPU_COUNT
  return n;
}

// The hand-written list of what warden calls says of each entry what the header says.
#define WARDEN_GPU_REQUIRED_AS_DECLARED(Ret, Name, Params)              \
  static_assert(std::is_same_v<decltype(Procs::Name), Ret(*) Params>, \
                "WARDEN_GPU_PROCS disagrees with the header's WGPUProc" #Name);
WARDEN_GPU_PROCS(WARDEN_GPU_REQUIRED_AS_DECLARED)
#undef WARDEN_GPU_REQUIRED_AS_DECLARED

std::vector<std::string> resolve_procs(void* handle, Procs& procs, std::vector<std::string>* absent) {
#define WARDEN_GPU_RESOLVE(Ret, Name, Params)                                              \
  procs.Name = reinterpret_cast<WGPUProc##Name>(::dlsym(handle, "wgpu" #Name));            \
  if (procs.Name == nullptr && absent != nullptr) absent->emplace_back("wgpu" #Name);
  WARDEN_WEBGPU_PROCS(WARDEN_GPU_RESOLVE)
#undef WARDEN_GPU_RESOLVE
  std::vector<std::string> missing;
#define WARDEN_GPU_REQUIRE(Ret, Name, Params) \
  if (procs.Name == nullptr) missing.emplace_back("wgpu" #Name);
  WARDEN_GPU_PROCS(WARDEN_GPU_REQUIRE)
#undef WARDEN_GPU_REQUIRE
  return missing;
}

Result<void> Library::require(std::string_view entry) const {
  std::string name = entry.starts_with("wgpu") ? std::string(entry) : "wgpu" + std::string(entry);
  bool listed = false;
#define WARDEN_GPU_LISTED(Ret, Name, Params) listed = listed || name == "wgpu" #Name;
  WARDEN_WEBGPU_PROCS(WARDEN_GPU_LISTED)
#undef WARDEN_GPU_LISTED
  if (!listed) {
    return make_error(ErrorKind::InvalidArgument, MessageId::LibraryProcUnknown,
                      fmt::format("{} is not an entry point of the webgpu.h warden was built with "
                                  "(gpu::Procs has no such field)",
                                  name));
  }
  if (std::find(absent_procs_.begin(), absent_procs_.end(), name) == absent_procs_.end()) return {};
  return make_error(ErrorKind::SymbolMissing, MessageId::LibraryProcAbsent,
                    fmt::format("the WebGPU library {} does not export {}: its entry in gpu::Procs is "
                                "null ({} of the header's {} entry points are absent from it)",
                                path_, name, absent_procs_.size(), proc_count()));
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
      bool bare = path.find('/') == std::string::npos;
      tried.push_back(fmt::format("  {}{}: {}", path,
                                  bare ? " (LD_LIBRARY_PATH, the program's run path, the system's folders)" : "",
                                  why ? why : "not loadable"));
      continue;
    }
    auto lib = std::shared_ptr<Library>(new Library());
    auto missing = resolve_procs(handle, lib->procs_, &lib->absent_procs_);
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
    // Where it came from, for `warden info`: a bare name as the file the loader found.
    lib->path_ = loaded_file(handle, path);
    // Before anything else calls it, and with its own entry points: a library of another ABI
    // is refused here, with what differs, instead of corrupting memory later. Not dlclose()d
    // when refused: the check has started the library's instance (see the class comment).
    auto abi = checked_abi(handle, lib->procs_, lib->path_);
    if (!abi) return abi.error();
    lib->abi_check_ = std::move(abi.value());
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
                                "Fix: an installed warden keeps Dawn in <prefix>/lib/{}/, where a "
                                "shared libwarden looks by itself and a program linking a static one "
                                "finds it through the run path find_package(warden) or `pkg-config "
                                "--libs warden` gives it; check that folder is there. A program can "
                                "also ship {} in a dawn/ folder beside its executable, or set "
                                "{}=/path/to/{} (a Dawn build with the ABI of the header warden was built "
                                "with: docs/adr/0033). In "
                                "warden's source tree, scripts/fetch-dawn.sh (run by `make build`) "
                                "fetches Dawn into build/dawn/.",
                                list, kInstalledDawnFolder, kDawnFileName, kLibraryEnvVar, kDawnFileName));
}

}  // namespace warden::gpu
