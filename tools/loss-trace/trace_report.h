// What loss_trace prints once tracing is off: the recorded addresses resolved to names and
// source lines (dladdr, then addr2line), sorted into warden's functions and files, the
// type-erased hops between them, and the order in which they first ran.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace loss_trace {

struct ReportOptions {
  std::string repo_root;  ///< a function is warden's when its file is under <repo_root>/src or /include
  std::string json_path;  ///< where the whole report goes as JSON; empty: nowhere
  bool print_order = false;    ///< print every warden and program function in first-call order
  bool print_by_file = false;  ///< print warden's functions grouped by file, in first-call order
};

/// Reports what trace_hooks recorded, with `scenario` (what the program saw) in the JSON.
/// False, saying why on stderr, when addr2line could not run or the JSON could not be written.
bool report_trace(const ReportOptions& options, const nlohmann::json& scenario);

}  // namespace loss_trace
