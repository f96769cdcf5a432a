// loss_trace's report (trace_report.h). Compiled without -finstrument-functions: it runs after
// tracing is off, and its own calls would only add noise to the program's depth bookkeeping.
#include "trace_report.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "trace_hooks.h"

namespace loss_trace {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Where a function's source lies.
enum class Origin { Warden, Program, Std, Other };

const char* to_string(Origin origin) {
  switch (origin) {
    case Origin::Warden: return "warden";
    case Origin::Program: return "program";
    case Origin::Std: return "std";
    case Origin::Other: return "other";
  }
  return "other";
}

struct Frame {
  std::string name = "??";
  std::string file;  // absolute and normalised; empty when unknown
  int line = 0;
};

// One address resolved: addr2line -i gives the inlined frames innermost first, so the function
// the address lies in is the last one.
struct Symbol {
  std::string object;
  std::vector<Frame> frames{Frame{}};
  const Frame& function() const { return frames.back(); }
};

bool starts_with(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
}

std::string demangle(const char* symbol) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> out(abi::__cxa_demangle(symbol, nullptr, nullptr, &status), &std::free);
  return status == 0 && out ? std::string(out.get()) : std::string(symbol);
}

// "path:123" or "path:123 (discriminator 4)" or "??:0".
Frame parse_location(std::string name, std::string location) {
  Frame frame;
  frame.name = std::move(name);
  if (const size_t d = location.find(" (discriminator"); d != std::string::npos) location.resize(d);
  const size_t colon = location.rfind(':');
  if (colon == std::string::npos || starts_with(location, "??")) return frame;
  frame.file = fs::path(location.substr(0, colon)).lexically_normal().string();
  frame.line = std::atoi(location.c_str() + colon + 1);
  return frame;
}

// Runs addr2line once for all `offsets` of one object; one Symbol per offset, in order.
bool addr2line(const std::string& object, const std::vector<uintptr_t>& offsets, std::vector<Symbol>& out) {
  if (object.find('\'') != std::string::npos) {
    std::cerr << "loss_trace: cannot quote the path " << object << " for addr2line\n";
    return false;
  }
  char list[] = "/tmp/loss_trace_addresses_XXXXXX";
  const int fd = mkstemp(list);
  if (fd < 0) {
    std::perror("loss_trace: mkstemp");
    return false;
  }
  {
    std::ofstream addresses(list);
    for (uintptr_t offset : offsets) addresses << "0x" << std::hex << offset << '\n';
  }
  ::close(fd);
  const std::string command = "addr2line -a -f -C -i -e '" + object + "' < " + list;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) {
    std::perror("loss_trace: popen addr2line");
    ::unlink(list);
    return false;
  }
  std::vector<std::string> lines;
  std::string line;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
    line += buffer;
    if (!line.empty() && line.back() == '\n') {
      line.pop_back();
      lines.push_back(std::move(line));
      line.clear();
    }
  }
  const int status = ::pclose(pipe);
  ::unlink(list);
  if (status != 0) {
    std::cerr << "loss_trace: `" << command << "` failed (status " << status << ")\n";
    return false;
  }
  // With -a every group starts with the address (0x...), then name and file:line pairs; no
  // function name starts with "0x".
  std::vector<Symbol> symbols;
  for (size_t i = 0; i < lines.size();) {
    if (!starts_with(lines[i], "0x")) {
      ++i;
      continue;
    }
    Symbol symbol;
    symbol.object = object;
    symbol.frames.clear();
    for (++i; i < lines.size() && !starts_with(lines[i], "0x"); i += 2) {
      symbol.frames.push_back(parse_location(lines[i], i + 1 < lines.size() ? lines[i + 1] : ""));
    }
    if (symbol.frames.empty()) symbol.frames.emplace_back();
    symbols.push_back(std::move(symbol));
  }
  if (symbols.size() != offsets.size()) {
    std::cerr << "loss_trace: addr2line gave " << symbols.size() << " answers for " << offsets.size() << " addresses\n";
    return false;
  }
  out = std::move(symbols);
  return true;
}

// Resolves addresses through the object each lies in (dladdr), one addr2line run per object.
// `return_addresses`: each is a call's return address; the call is the byte before it.
bool symbolize(const std::vector<uintptr_t>& addresses, bool return_addresses, std::map<uintptr_t, Symbol>& out) {
  Dl_info self{};
  if (dladdr(reinterpret_cast<void*>(&symbolize), &self) == 0) return false;
  const std::string program = fs::read_symlink("/proc/self/exe").string();
  std::map<std::string, std::vector<uintptr_t>> by_object;  // object -> addresses
  std::map<uintptr_t, std::pair<uintptr_t, std::string>> located;  // address -> offset, exported name
  for (uintptr_t address : addresses) {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(address - (return_addresses ? 1 : 0)), &info) == 0 || info.dli_fname == nullptr) {
      out[address] = Symbol{"?", {Frame{}}};
      continue;
    }
    const std::string object = info.dli_fbase == self.dli_fbase ? program : std::string(info.dli_fname);
    const uintptr_t offset = address - reinterpret_cast<uintptr_t>(info.dli_fbase) - (return_addresses ? 1 : 0);
    located[address] = {offset, info.dli_sname != nullptr ? demangle(info.dli_sname) : std::string()};
    by_object[object].push_back(address);
  }
  for (const auto& [object, in_object] : by_object) {
    std::vector<uintptr_t> offsets;
    for (uintptr_t address : in_object) offsets.push_back(located[address].first);
    std::vector<Symbol> symbols;
    if (!addr2line(object, offsets, symbols)) return false;
    for (size_t i = 0; i < in_object.size(); ++i) {
      Symbol& symbol = symbols[i];
      // A library without debug information (Dawn): its exported name, or where in it.
      if (symbol.function().name == "??") {
        const std::string& exported = located[in_object[i]].second;
        std::ostringstream where;
        where << fs::path(object).filename().string() << "+0x" << std::hex << offsets[i];
        symbol.frames.back().name = exported.empty() ? where.str() : exported;
      }
      out[in_object[i]] = std::move(symbol);
    }
  }
  return true;
}

// A demangled name cut down to what a reader needs: no parameter lists, template arguments,
// return type or qualifiers, no leading warden::. "Engine::poll::{lambda#2}::operator()".
std::string short_name(std::string name) {
  // Operators whose spelling would read as brackets, kept aside while brackets are dropped.
  static const std::pair<const char*, const char*> kOperators[] = {
      {"operator()", "\x01"}, {"operator<=>", "\x02"}, {"operator<<=", "\x03"}, {"operator>>=", "\x04"},
      {"operator<<", "\x05"}, {"operator>>", "\x06"}, {"operator<=", "\x07"}, {"operator>=", "\x08"},
      {"operator->*", "\x0e"}, {"operator->", "\x0f"}, {"operator<", "\x10"}, {"operator>", "\x11"},
      {"operator ", "\x12"},  // conversions (operator bool), new, delete: not a return type
  };
  for (const auto& [spelled, kept] : kOperators) replace_all(name, spelled, kept);
  replace_all(name, "(anonymous namespace)::", "");
  std::string out;
  int parens = 0, angles = 0;
  for (char c : name) {
    if (c == '(') ++parens;
    else if (c == ')') --parens;
    else if (parens > 0) continue;
    else if (c == '<') {
      if (angles++ == 0) out += "<>";
    } else if (c == '>') --angles;
    else if (angles == 0) out += c;
  }
  for (const char* qualifier : {" const", " &&", " &", " volatile"}) {
    const std::string q(qualifier);
    while (out.size() > q.size() && out.compare(out.size() - q.size(), q.size(), q) == 0) out.resize(out.size() - q.size());
  }
  if (const size_t space = out.rfind(' '); space != std::string::npos) out = out.substr(space + 1);  // a return type
  if (starts_with(out, "warden::")) out = out.substr(8);
  for (const auto& [spelled, kept] : kOperators) replace_all(out, kept, spelled);
  // A closure's own constructors and destructor demangle under its parameter's type name
  // ("{lambda(LossReport)#1}::~LossReport"): name them for what they are.
  if (const size_t last = out.rfind("::"); last != std::string::npos && last > 0 && out[last - 1] == '}' &&
                                           out.rfind("{lambda", last) != std::string::npos) {
    const std::string member = out.substr(last + 2);
    if (!starts_with(member, "operator") && member != "_FUN") {
      out = out.substr(0, last + 2) + (starts_with(member, "~") ? "~closure" : "closure");
    }
  }
  return out;
}

struct Function {
  LossTraceFunction recorded;
  Symbol symbol;
  Origin origin = Origin::Other;
  std::string file;  // relative to the repository when inside it
  std::string name;
  std::string brief;
};

}  // namespace

bool report_trace(const ReportOptions& options, const json& scenario) {
  const std::string root = fs::path(options.repo_root).lexically_normal().string();
  const std::string root_slash = root.back() == '/' ? root : root + "/";
  auto origin_of = [&](const std::string& file) {
    if (starts_with(file, root_slash + "src/") || starts_with(file, root_slash + "include/")) return Origin::Warden;
    if (starts_with(file, root_slash + "tools/loss-trace/")) return Origin::Program;
    if (starts_with(file, "/usr/")) return Origin::Std;
    return Origin::Other;
  };

  size_t function_count = 0, edge_count = 0, mark_count = 0;
  const LossTraceFunction* recorded = loss_trace_functions(&function_count);
  const LossTraceEdge* edges = loss_trace_edges(&edge_count);
  const LossTraceMark* marks = loss_trace_marks(&mark_count);

  std::vector<uintptr_t> addresses;
  for (size_t i = 0; i < function_count; ++i) addresses.push_back(reinterpret_cast<uintptr_t>(recorded[i].address));
  std::vector<uintptr_t> external_sites;
  for (size_t i = 0; i < edge_count; ++i) {
    if (edges[i].external) external_sites.push_back(reinterpret_cast<uintptr_t>(edges[i].call_site));
  }
  std::map<uintptr_t, Symbol> symbols, sites;
  if (!symbolize(addresses, false, symbols) || !symbolize(external_sites, true, sites)) return false;

  std::vector<Function> functions;
  std::unordered_map<uintptr_t, size_t> index;  // address -> position in `functions`
  for (size_t i = 0; i < function_count; ++i) {
    Function f;
    f.recorded = recorded[i];
    f.symbol = symbols[reinterpret_cast<uintptr_t>(recorded[i].address)];
    const Frame& frame = f.symbol.function();
    f.file = starts_with(frame.file, root_slash) ? frame.file.substr(root_slash.size()) : frame.file;
    f.name = frame.name;
    f.brief = short_name(frame.name);
    // libstdc++'s ext/atomicity.h functions come out of the debug information under the file
    // that included them; their names say where they belong.
    const bool std_name = starts_with(f.brief, "std::") || starts_with(f.brief, "__gnu_cxx::");
    f.origin = std_name ? Origin::Std : origin_of(frame.file);
    functions.push_back(std::move(f));
  }
  std::sort(functions.begin(), functions.end(),
            [](const Function& a, const Function& b) { return a.recorded.order < b.recorded.order; });
  for (size_t i = 0; i < functions.size(); ++i) index[reinterpret_cast<uintptr_t>(functions[i].recorded.address)] = i;
  std::unordered_map<uintptr_t, std::vector<const LossTraceEdge*>> callees;
  for (size_t i = 0; i < edge_count; ++i) callees[reinterpret_cast<uintptr_t>(edges[i].caller)].push_back(&edges[i]);

  // What warden's and this program's code reached through calls made inside the program. A
  // shared library (Mesa, LLVM, Dawn) may call the program's copy of a standard template too;
  // what only such calls entered is not on the path.
  std::unordered_set<uintptr_t> reached;
  {
    std::deque<uintptr_t> next;
    for (const Function& f : functions) {
      if (f.origin == Origin::Warden || f.origin == Origin::Program) next.push_back(reinterpret_cast<uintptr_t>(f.recorded.address));
    }
    reached.insert(next.begin(), next.end());
    while (!next.empty()) {
      const uintptr_t at = next.front();
      next.pop_front();
      for (const LossTraceEdge* e : callees[at]) {
        if (!e->external && reached.insert(reinterpret_cast<uintptr_t>(e->callee)).second) {
          next.push_back(reinterpret_cast<uintptr_t>(e->callee));
        }
      }
    }
  }

  // Warden's functions and files, in first-call order.
  std::map<Origin, size_t> by_origin;
  size_t unreached = 0;
  std::vector<std::string> files;                    // first-call order
  std::map<std::string, std::vector<const Function*>> in_file;
  std::set<std::pair<std::string, int>> definitions;  // an instantiated template counts once here
  std::vector<const Function*> lambdas;  // every function of a closure: its body, copies, destructor
  size_t lambda_bodies = 0;               // the bodies (operator()) alone
  std::vector<const Function*> others;    // reached, in neither warden, this program nor /usr
  for (const Function& f : functions) {
    if (!reached.count(reinterpret_cast<uintptr_t>(f.recorded.address))) {
      ++unreached;
      continue;
    }
    ++by_origin[f.origin];
    if (f.origin == Origin::Other) others.push_back(&f);
    if (f.origin != Origin::Warden) continue;
    if (!in_file.count(f.file)) files.push_back(f.file);
    in_file[f.file].push_back(&f);
    definitions.emplace(f.file, f.symbol.function().line);
    if (f.name.find("{lambda(") != std::string::npos) lambdas.push_back(&f);
    if (f.name.find("{lambda(") != std::string::npos && f.brief.size() >= 12 &&
        f.brief.compare(f.brief.size() - 12, 12, "::operator()") == 0) {
      ++lambda_bodies;
    }
  }

  // The first functions below `start` that `passable` does not see through: what a type-erased
  // call reached. A constructor or destructor there is an argument passed by value, not the
  // callee, and is named only when nothing else was reached.
  auto targets_below = [&](const Function& start, auto passable) {
    std::vector<const Function*> targets, special;
    std::deque<uintptr_t> next{reinterpret_cast<uintptr_t>(start.recorded.address)};
    std::unordered_set<uintptr_t> seen(next.begin(), next.end());
    while (!next.empty()) {
      const uintptr_t at = next.front();
      next.pop_front();
      for (const LossTraceEdge* e : callees[at]) {
        const uintptr_t callee = reinterpret_cast<uintptr_t>(e->callee);
        if (!seen.insert(callee).second || !index.count(callee)) continue;
        const Function& g = functions[index[callee]];
        if (passable(g)) {
          next.push_back(callee);
          continue;
        }
        const size_t last = g.brief.rfind("::");
        const std::string member = last == std::string::npos ? g.brief : g.brief.substr(last + 2);
        const size_t before = last == std::string::npos ? std::string::npos : g.brief.rfind("::", last - 1);
        const size_t from = before == std::string::npos ? 0 : before + 2;
        std::string owner = last == std::string::npos ? "" : g.brief.substr(from, last - from);
        if (owner.size() > 2 && owner.compare(owner.size() - 2, 2, "<>") == 0) owner.resize(owner.size() - 2);
        const bool lifetime = member == owner || starts_with(member, "~") || member == "operator=" ||
                              member == "closure" || member == "~closure";
        (lifetime ? special : targets).push_back(&g);
      }
    }
    return targets.empty() ? special : targets;
  };

  // std::function hops: each _M_invoke entered, and the first functions outside the standard
  // library below it (the callee the std::function held).
  struct Hop {
    const Function* handler;
    std::vector<const Function*> targets;
    Origin into = Origin::Other;
  };
  std::vector<Hop> hops;
  for (const Function& f : functions) {
    if (f.name.find("_Function_handler<") == std::string::npos || f.name.find("::_M_invoke(") == std::string::npos) continue;
    Hop hop{&f, targets_below(f, [](const Function& g) { return g.origin == Origin::Std; }), Origin::Std};
    for (const Function* t : hop.targets) {
      if (t->origin == Origin::Warden) hop.into = Origin::Warden;
      else if (t->origin == Origin::Program && hop.into != Origin::Warden) hop.into = Origin::Program;
    }
    hops.push_back(std::move(hop));
  }
  std::map<Origin, std::pair<size_t, uint64_t>> hops_into;  // handlers, calls
  uint64_t invoke_calls = 0;
  for (const Hop& hop : hops) {
    invoke_calls += hop.handler->recorded.calls;
    hops_into[hop.into].first += 1;
    hops_into[hop.into].second += hop.handler->recorded.calls;
  }

  // Functions entered from code outside the program: C callbacks of a library (Dawn).
  struct Entry {
    const Function* callee;
    std::string from;
    uint64_t calls;
    std::vector<const Function*> reached;  // past the callee's own file (a trampoline's)
  };
  std::vector<Entry> entries;
  for (size_t i = 0; i < edge_count; ++i) {
    const auto found = index.find(reinterpret_cast<uintptr_t>(edges[i].callee));
    if (!edges[i].external || found == index.end()) continue;
    const Function& callee = functions[found->second];
    if (callee.origin != Origin::Warden && callee.origin != Origin::Program) continue;
    const Symbol& site = sites[reinterpret_cast<uintptr_t>(edges[i].call_site)];
    entries.push_back({&callee, fs::path(site.object).filename().string() + " (" + site.function().name + ")",
                       edges[i].calls, targets_below(callee, [&](const Function& g) {
                         return g.origin == Origin::Std || g.file == callee.file;
                       })});
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.callee->recorded.order < b.callee->recorded.order; });

  // ---- text ----
  std::ostream& out = std::cout;
  const size_t warden = by_origin[Origin::Warden];
  out << "functions entered while tracing: " << functions.size() - unreached << " (warden " << warden
      << ", standard library " << by_origin[Origin::Std] << ", this program " << by_origin[Origin::Program]
      << ", other " << by_origin[Origin::Other] << "); left out: " << unreached
      << " entered only from shared libraries' own calls\n";
  // Other threads (the hot-reload worker ending and starting) race with the end of tracing; the
  // frame thread's count is the one a run repeats exactly.
  size_t warden_frame_thread = 0;
  for (const auto& [file, in] : in_file) {
    for (const Function* f : in) warden_frame_thread += f->recorded.thread == 0;
  }
  out << "warden functions: " << warden << " (" << definitions.size() << " distinct definitions) in " << files.size()
      << " files; " << warden_frame_thread << " of them on the frame thread, " << warden - warden_frame_thread
      << " on other threads\n";
  out << "type-erased hops:\n";
  out << "  std::function invocations: " << hops.size() << " handlers, " << invoke_calls << " calls; into warden "
      << hops_into[Origin::Warden].first << " handlers (" << hops_into[Origin::Warden].second
      << " calls), into this program's callbacks " << hops_into[Origin::Program].first << " ("
      << hops_into[Origin::Program].second << " calls)\n";
  for (const Hop& hop : hops) {
    out << "    " << to_string(hop.into) << ":";
    for (const Function* t : hop.targets) out << " " << t->brief;
    out << " x" << hop.handler->recorded.calls << "\n";
  }
  out << "  warden lambdas entered: " << lambda_bodies << " bodies (" << lambdas.size()
      << " functions of closures, copies and destructors included)\n";
  out << "  entries from outside the program (C callbacks): " << entries.size() << "\n";
  for (const Entry& e : entries) {
    out << "    #" << e.callee->recorded.order << " " << e.callee->brief;
    for (const Function* r : e.reached) out << " -> " << r->brief;
    out << " <- " << e.from << " x" << e.calls << "\n";
  }
  out << "  (virtual calls are not visible by name: they are counted among the functions, not as hops)\n";
  // Warden's frame-thread functions first run before each mark: how far along the path each
  // callback came (the frame thread alone, so that a run repeats the numbers).
  auto warden_between = [&](uint32_t from, uint32_t to, std::set<std::string>* files_seen) {
    size_t n = 0;
    for (const auto& [file, in] : in_file) {
      for (const Function* f : in) {
        if (f->recorded.thread != 0 || f->recorded.order < from || f->recorded.order >= to) continue;
        ++n;
        if (files_seen) files_seen->insert(file);
      }
    }
    return n;
  };
  std::vector<size_t> warden_before(mark_count, 0);
  for (size_t i = 0; i < mark_count; ++i) warden_before[i] = warden_between(0, marks[i].functions_before, nullptr);
  out << "marks (frame-thread warden functions first run before each, of all functions):";
  for (size_t i = 0; i < mark_count; ++i) {
    out << (i ? ", " : " ") << marks[i].label << " " << warden_before[i] << "/" << marks[i].functions_before;
  }
  out << "\n";
  // The stretch the refactor is about: from the first call a library made into warden (Dawn's
  // device-lost callback, on this path) to the application's on_rebuilt.
  const LossTraceMark* rebuilt = std::find_if(marks, marks + mark_count, [](const LossTraceMark& m) {
    return std::string_view(m.label) == "on_rebuilt";
  });
  json stretch;
  if (!entries.empty() && rebuilt != marks + mark_count) {
    std::set<std::string> stretch_files;
    const uint32_t from = entries.front().callee->recorded.order;
    const size_t n = warden_between(from, rebuilt->functions_before, &stretch_files);
    out << "from the first library callback into warden (#" << from << ", " << entries.front().from << ") to on_rebuilt: "
        << n << " frame-thread warden functions first run, in " << stretch_files.size() << " files\n";
    stretch = {{"from_order", from}, {"from", entries.front().from}, {"warden_functions", n}, {"files", stretch_files.size()}};
  }
  out << "warden files, in first-call order:\n";
  for (const std::string& file : files) out << "  " << in_file[file].size() << "\t" << file << "\n";
  if (options.print_by_file) {
    out << "warden functions by file, in first-call order:\n";
    // Instantiations of one template share a short name: each name once, with how many.
    for (const std::string& file : files) {
      std::vector<std::pair<std::string, size_t>> names;
      for (const Function* f : in_file[file]) {
        auto same = std::find_if(names.begin(), names.end(), [&](const auto& n) { return n.first == f->brief; });
        if (same == names.end()) names.emplace_back(f->brief, 1);
        else ++same->second;
      }
      out << "  " << file << ": " << in_file[file].size() << " functions:";
      const char* sep = " ";
      for (const auto& [name, count] : names) {
        out << sep << name;
        if (count > 1) out << " x" << count;
        sep = ", ";
      }
      out << "\n";
    }
  }
  if (options.print_order) {
    out << "first-call order (warden and this program; order, depth, thread, calls):\n";
    size_t next_mark = 0;
    for (const Function& f : functions) {
      while (next_mark < mark_count && marks[next_mark].functions_before <= f.recorded.order) {
        out << "  ---- " << marks[next_mark++].label << "\n";
      }
      if (f.origin != Origin::Warden && f.origin != Origin::Program) continue;
      out << "  " << f.recorded.order << "\t" << f.recorded.depth << "\t" << f.recorded.thread << "\t" << f.recorded.calls
          << "\t" << std::string(std::min<int>(std::max(f.recorded.depth, 0), 40), ' ') << f.brief << "  [" << f.file
          << ":" << f.symbol.function().line << "]\n";
    }
  }
  if (loss_trace_dropped() != 0) out << "warning: " << loss_trace_dropped() << " calls did not fit the trace tables\n";

  if (options.json_path.empty()) return true;
  // ---- JSON ----
  json report;
  report["scenario"] = scenario;
  report["functions"] = {{"total", functions.size() - unreached},
                         {"left_out_library_only", unreached},
                         {"warden", warden},
                         {"warden_definitions", definitions.size()},
                         {"warden_frame_thread", warden_frame_thread},
                         {"warden_files", files.size()},
                         {"std", by_origin[Origin::Std]},
                         {"program", by_origin[Origin::Program]},
                         {"other", by_origin[Origin::Other]}};
  json file_list = json::array();
  for (const std::string& file : files) {
    json names = json::array();
    for (const Function* f : in_file[file]) names.push_back(f->brief);
    file_list.push_back({{"file", file}, {"functions", in_file[file].size()}, {"names", names}});
  }
  report["files"] = file_list;
  json handlers = json::array();
  for (const Hop& hop : hops) {
    json targets = json::array();
    for (const Function* t : hop.targets) targets.push_back({{"name", t->brief}, {"file", t->file}, {"origin", to_string(t->origin)}});
    handlers.push_back({{"handler", hop.handler->name}, {"calls", hop.handler->recorded.calls}, {"into", to_string(hop.into)},
                        {"callees", targets}});
  }
  json lambda_names = json::array();
  for (const Function* f : lambdas) lambda_names.push_back({{"name", f->brief}, {"file", f->file}, {"calls", f->recorded.calls}});
  json entry_list = json::array();
  for (const Entry& e : entries) {
    json reached_names = json::array();
    for (const Function* r : e.reached) reached_names.push_back(r->brief);
    entry_list.push_back({{"order", e.callee->recorded.order}, {"callee", e.callee->brief}, {"file", e.callee->file},
                          {"reached", reached_names},
                          {"from", e.from}, {"calls", e.calls}});
  }
  report["type_erased"] = {{"std_function_handlers", hops.size()},
                           {"std_function_calls", invoke_calls},
                           {"std_function_handlers_into_warden", hops_into[Origin::Warden].first},
                           {"std_function_calls_into_warden", hops_into[Origin::Warden].second},
                           {"std_function_handlers_into_program", hops_into[Origin::Program].first},
                           {"std_function_calls_into_program", hops_into[Origin::Program].second},
                           {"handlers", handlers},
                           {"warden_lambda_bodies", lambda_bodies},
                           {"warden_lambda_functions", lambdas.size()},
                           {"warden_lambda_names", lambda_names},
                           {"entries_from_libraries", entry_list}};
  json mark_list = json::array();
  for (size_t i = 0; i < mark_count; ++i) {
    mark_list.push_back({{"label", marks[i].label}, {"functions_before", marks[i].functions_before},
                         {"warden_functions_before", warden_before[i]}});
  }
  report["marks"] = mark_list;
  report["callback_to_on_rebuilt"] = stretch;
  json order = json::array();
  for (const Function& f : functions) {
    if (f.origin != Origin::Warden && f.origin != Origin::Program) continue;
    order.push_back({{"order", f.recorded.order},
                     {"depth", f.recorded.depth},
                     {"thread", f.recorded.thread},
                     {"calls", f.recorded.calls},
                     {"origin", to_string(f.origin)},
                     {"name", f.brief},
                     {"demangled", f.name},
                     {"file", f.file},
                     {"line", f.symbol.function().line}});
  }
  report["order"] = order;
  json other_list = json::array();
  for (const Function* f : others) other_list.push_back({{"name", f->name}, {"file", f->file}});
  report["other_functions"] = other_list;
  report["dropped"] = loss_trace_dropped();
  std::ofstream file(options.json_path);
  file << report.dump(1) << "\n";
  if (!file) {
    std::cerr << "loss_trace: could not write " << options.json_path << "\n";
    return false;
  }
  return true;
}

}  // namespace loss_trace
