// The WESL linker: loads the modules the root reaches, resolves imports and qualified names,
// keeps what the root's declarations reach, names it, and writes one WGSL text with a source
// map (docs/shader-modules.md; docs/adr/0053).
#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "shaders/wesl_syntax.h"
#include "warden/shaders/wesl.h"

namespace warden::shaders {
namespace {

// The 1-based line and byte column of `offset` in `text`, WGSL's line breaks counted.
std::pair<uint32_t, uint32_t> line_and_column(std::string_view text, size_t offset) {
  uint32_t line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset && i < text.size();) {
    const size_t length = line_break_length(text, i);
    if (length == 0) {
      ++i;
      continue;
    }
    i += length;
    if (i > offset) break;
    ++line;
    line_start = i;
  }
  return {line, static_cast<uint32_t>(offset - line_start + 1)};
}

std::string join(const std::vector<std::string>& segments, std::string_view separator) {
  std::string out;
  for (const std::string& segment : segments) {
    if (!out.empty()) out += separator;
    out += segment;
  }
  return out;
}

// Underscore-count naming: segments joined by '_', a segment that holds '_' written
// `_<count><segment>`, so that the path can be read back from the name.
std::string path_name(const std::vector<std::string>& segments) {
  std::vector<std::string> written;
  for (const std::string& segment : segments) {
    const auto underscores = std::count(segment.begin(), segment.end(), '_');
    written.push_back(underscores == 0 ? segment : fmt::format("_{}{}", underscores, segment));
  }
  return join(written, "_");
}

struct Module {
  std::vector<std::string> segments;  // "package", "a", "b" for package::a::b
  std::string name;                   // segments joined by ::
  bool has_file = false;
  std::filesystem::path file;
  std::string display;  // the file as messages name it
  std::string text;
  wesl::ParsedModule parsed;
  std::map<std::string, size_t, std::less<>> items;  // module-scope name -> index in parsed.items
  // A name an import brings in. It is resolved the first time the module uses it: an import
  // nothing uses names nothing, so it neither loads a module nor fails the link.
  struct Binding {
    std::vector<std::string> segments;  // as the import wrote them
    std::string path;                   // the same, joined by ::
    uint32_t at = 0;                    // the import's place, for messages and import chains
    enum class State : uint8_t { Unresolved, Resolved, Failed } state = State::Unresolved;
    bool module = false;
    size_t target_module = 0;
    size_t target_item = 0;
  };
  std::map<std::string, Binding, std::less<>> imports;
  // How the root reaches it: the module whose import (or qualified name) loaded it first.
  std::optional<size_t> importer;
  uint32_t imported_at = 0;
  int file_index = -1;
};

// A declaration: (module, item).
using Declaration = std::pair<size_t, size_t>;

// What a name resolves to.
struct Target {
  bool module = false;
  size_t target_module = 0;
  size_t target_item = 0;
};

class Linker {
 public:
  Linker(const std::filesystem::path& root_file, const WeslOptions& options) : root_file_(root_file), options_(options) {
    package_root_ = options.package_root.empty() ? root_file.parent_path() : options.package_root;
    read_ = options.read_file ? options.read_file : [](const std::filesystem::path& path) { return read_source(path); };
  }

  LinkedShader run(std::string_view root_text) {
    const size_t root = add_root(root_text);
    if (out_.diagnostics.empty()) keep_reached(root);
    if (out_.diagnostics.empty()) find_cycles();
    if (out_.diagnostics.empty()) {
      assign_names();
      emit();
    }
    finish_files();
    if (!out_.diagnostics.empty()) out_.wgsl.clear();
    return std::move(out_);
  }

 private:
  // --- modules -------------------------------------------------------------------------------

  size_t add_root(std::string_view text) {
    std::vector<std::string> segments{"package"};
    const std::filesystem::path relative = root_file_.lexically_normal().lexically_relative(package_root_.lexically_normal());
    const bool inside = !relative.empty() && *relative.begin() != "..";
    if (inside) {
      for (const auto& part : relative.parent_path()) segments.push_back(part.string());
    }
    segments.push_back(root_file_.stem().string());
    Module module;
    module.segments = segments;
    module.name = join(segments, "::");
    module.has_file = true;
    module.file = root_file_;
    module.display = root_file_.string();
    module.text = std::string(text);
    return add(std::move(module));
  }

  size_t add(Module module) {
    const size_t index = modules_.size();
    by_name_[module.name] = index;
    if (module.has_file) {
      module.parsed = wesl::parse_module(module.text, options_.features);
      for (const std::string& feature : module.parsed.features_used) {
        if (std::find(out_.features_used.begin(), out_.features_used.end(), feature) == out_.features_used.end()) {
          out_.features_used.push_back(feature);
        }
      }
    }
    if (module.has_file) module.file_index = file_count_++;
    modules_.push_back(std::move(module));
    Module& added = modules_.back();
    for (const wesl::SyntaxError& error : added.parsed.errors) fail(index, error.offset, error.id, error.message);
    declare_imports(index);
    for (size_t i = 0; i < added.parsed.items.size(); ++i) {
      const wesl::Item& item = added.parsed.items[i];
      if (item.name.empty()) continue;
      if (auto [it, inserted] = added.items.emplace(item.name, i); !inserted) {
        const auto [line, column] = line_and_column(added.text, added.parsed.items[it->second].name_offset);
        fail(index, item.name_offset, MessageId::WeslNameConflict,
             fmt::format("'{}' is declared twice in this module (first at {}:{})", item.name, line, column));
      }
    }
    return index;
  }

  std::filesystem::path folder_of(const std::vector<std::string>& segments) const {
    std::filesystem::path folder = segments[0] == "package" ? package_root_ : package(segments[0])->root;
    for (size_t i = 1; i < segments.size(); ++i) folder /= segments[i];
    return folder;
  }

  const WeslPackage* package(std::string_view name) const {
    for (const WeslPackage& p : options_.packages) {
      if (p.name == name) return &p;
    }
    return nullptr;
  }

  // The module at `segments`, read and parsed the first time it is named. A module with no file
  // is a folder (or nothing): it has no declarations of its own.
  size_t load(const std::vector<std::string>& segments, size_t importer, uint32_t at) {
    const std::string name = join(segments, "::");
    if (auto found = by_name_.find(name); found != by_name_.end()) return found->second;
    Module module;
    module.segments = segments;
    module.name = name;
    module.importer = importer;
    module.imported_at = at;
    // A package's own top module is its lib file; `package` itself has none.
    std::filesystem::path stem = folder_of(segments);
    if (segments.size() == 1) stem = segments[0] == "package" ? std::filesystem::path() : stem / "lib";
    for (const char* extension : {".wesl", ".wgsl"}) {
      if (stem.empty()) break;
      std::filesystem::path candidate = stem;
      candidate += extension;
      auto text = read_(candidate);
      if (text) {
        module.has_file = true;
        module.file = candidate;
        module.display = candidate.string();
        module.text = std::move(text->text);
        break;
      }
      if (text.error().kind != ErrorKind::NotFound) {
        fail(importer, at, text.error().id, fmt::format("module {} cannot be read: {}", name, text.error().message));
        break;
      }
    }
    return add(std::move(module));
  }

  // --- names ---------------------------------------------------------------------------------

  // The names a module's imports bring in; two that differ, or one the module declares, are
  // refused here, before anything is resolved.
  void declare_imports(size_t m) {
    Module& module = modules_[m];
    for (const wesl::Import& import : module.parsed.imports) {
      const std::string path = join(import.path, "::");
      if (std::any_of(module.parsed.items.begin(), module.parsed.items.end(),
                      [&](const wesl::Item& item) { return item.name == import.alias; })) {
        fail(m, import.begin, MessageId::WeslNameConflict,
             fmt::format("import {} brings in '{}', which this module declares too", path, import.alias));
        continue;
      }
      Module::Binding binding;
      binding.segments = import.path;
      binding.path = path;
      binding.at = import.begin;
      auto [it, inserted] = module.imports.emplace(import.alias, std::move(binding));
      if (!inserted && it->second.path != path) {
        fail(m, import.begin, MessageId::WeslNameConflict,
             fmt::format("'{}' is brought in by two imports: {} and {} (rename one with 'as')", import.alias,
                         it->second.path, path));
      }
    }
  }

  // What the import of `alias` in module `m` names, resolved now if it was not yet; nullopt when
  // the module has no such import or it does not resolve (reported once).
  std::optional<Target> imported(size_t m, std::string_view alias) {
    auto found = modules_[m].imports.find(alias);
    if (found == modules_[m].imports.end()) return std::nullopt;
    Module::Binding& binding = found->second;  // a std::map node: stays put while modules load
    if (binding.state == Module::Binding::State::Unresolved) {
      binding.state = Module::Binding::State::Failed;
      const std::vector<std::string> segments = binding.segments;
      if (std::optional<Target> target = resolve_path(m, segments, binding.at, true)) {
        binding.state = Module::Binding::State::Resolved;
        binding.module = target->module;
        binding.target_module = target->target_module;
        binding.target_item = target->target_item;
      }
    }
    if (binding.state != Module::Binding::State::Resolved) return std::nullopt;
    return Target{binding.module, binding.target_module, binding.target_item};
  }

  // A path of an import (`from_import`) or a qualified name in code, from module `m`.
  std::optional<Target> resolve_path(size_t m, const std::vector<std::string>& path, uint32_t at, bool from_import) {
    const std::string written = join(path, "::");
    std::vector<std::string> current;
    size_t k = 0;
    if (path[0] == "package") {
      current = {modules_[m].segments[0]};  // the package this module belongs to
      k = 1;
    } else if (path[0] == "super") {
      current = modules_[m].segments;  // each super:: goes to the parent
      for (; k < path.size() && path[k] == "super"; ++k) {
        if (current.size() <= 1) {
          fail(m, at, MessageId::WeslUnknownImport,
               fmt::format("{}: super:: goes above the package's root ({} is {} levels down)", written,
                           modules_[m].name, modules_[m].segments.size() - 1));
          return std::nullopt;
        }
        current.pop_back();
      }
    } else if (!from_import && modules_[m].imports.count(path[0]) != 0) {
      const std::optional<Target> binding = imported(m, path[0]);
      if (!binding) return std::nullopt;  // reported where the import was resolved
      if (!binding->module) {
        if (path.size() == 1) return binding;
        fail(m, at, MessageId::WeslNotAnItem,
             fmt::format("{}: '{}' is a declaration (imported from {}), not a module", written, path[0],
                         modules_[m].imports.find(path[0])->second.path));
        return std::nullopt;
      }
      current = modules_[binding->target_module].segments;
      k = 1;
    } else if (package(path[0]) != nullptr) {
      current = {path[0]};
      k = 1;
    } else {
      std::string known = "package";
      for (const WeslPackage& p : options_.packages) known += ", " + p.name;
      fail(m, at, MessageId::WeslUnknownImport,
           fmt::format("{}: '{}' is not a package{} (packages: {})", written, path[0],
                       from_import ? "" : " or an imported module", known));
      return std::nullopt;
    }
    for (; k < path.size(); ++k) {
      const size_t module = load(current, m, at);
      if (!modules_[module].parsed.errors.empty()) return std::nullopt;  // reported when it was read
      if (auto item = modules_[module].items.find(path[k]); item != modules_[module].items.end()) {
        if (k + 1 == path.size()) return Target{false, module, item->second};
        fail(m, at, MessageId::WeslNotAnItem,
             fmt::format("{}: '{}' is a declaration in {}, which holds no other names", written, path[k],
                         modules_[module].name));
        return std::nullopt;
      }
      current.push_back(path[k]);
    }
    const size_t module = load(current, m, at);
    if (!modules_[module].has_file) {
      std::error_code ec;
      const bool folder = current.size() > 1 && std::filesystem::is_directory(folder_of(current), ec);
      if (!folder) {
        std::vector<std::string> parent(current.begin(), current.end() - 1);
        const size_t holder = load(parent, m, at);
        fail(m, at, MessageId::WeslUnknownImport,
             fmt::format("{}: no declaration '{}' in {}{}, and no module file {}.wesl or .wgsl", written,
                         current.back(), modules_[holder].name,
                         modules_[holder].has_file ? fmt::format(" ({})", modules_[holder].display) : "",
                         folder_of(current).string()));
        return std::nullopt;
      }
    }
    return Target{true, module, 0};
  }

  // A name used in a declaration of module `m`: a declaration, or nullopt for a predeclared name.
  std::optional<Target> resolve_reference(size_t m, const wesl::Reference& reference, bool& failed) {
    const Module& module = modules_[m];
    if (reference.path.size() == 1) {
      const std::string& name = reference.path[0];
      if (auto item = module.items.find(name); item != module.items.end()) return Target{false, m, item->second};
      if (module.imports.count(name) != 0) {
        const std::optional<Target> binding = imported(m, name);
        if (binding && !binding->module) return binding;
        failed = true;
        if (binding) {
          fail(m, reference.begin, MessageId::WeslNotAnItem,
               fmt::format("'{}' is a module (imported from {}); name a declaration in it, as {}::name", name,
                           modules_[m].imports.find(name)->second.path, name));
        }
      }
      return std::nullopt;
    }
    std::optional<Target> target = resolve_path(m, reference.path, reference.begin, false);
    if (!target) {
      failed = true;
      return std::nullopt;
    }
    if (target->module) {
      fail(m, reference.begin, MessageId::WeslNotAnItem,
           fmt::format("{} is a module, not a declaration", join(reference.path, "::")));
      failed = true;
      return std::nullopt;
    }
    return target;
  }

  // --- what is kept --------------------------------------------------------------------------

  void keep(Declaration declaration) {
    if (!kept_set_.insert(declaration).second) return;
    kept_.push_back(declaration);
    // A module one of whose declarations is kept brings its const_asserts and directives.
    if (modules_with_kept_.insert(declaration.first).second) {
      const Module& module = modules_[declaration.first];
      for (size_t i = 0; i < module.parsed.items.size(); ++i) {
        const wesl::ItemKind kind = module.parsed.items[i].kind;
        if (kind == wesl::ItemKind::ConstAssert || kind == wesl::ItemKind::Directive) keep({declaration.first, i});
      }
    }
  }

  void keep_reached(size_t root) {
    for (size_t i = 0; i < modules_[root].parsed.items.size(); ++i) keep({root, i});
    for (size_t next = 0; next < kept_.size(); ++next) {
      const Declaration declaration = kept_[next];
      const wesl::Item& item = modules_[declaration.first].parsed.items[declaration.second];
      std::vector<std::optional<Declaration>>& targets = targets_[declaration];
      targets.resize(item.references.size());
      for (size_t r = 0; r < item.references.size(); ++r) {
        bool failed = false;
        const std::optional<Target> target = resolve_reference(declaration.first, item.references[r], failed);
        if (!target) continue;
        targets[r] = Declaration{target->target_module, target->target_item};
        keep(*targets[r]);
      }
    }
  }

  // WGSL allows no recursion and no declaration that depends on itself; across modules the
  // compiler would name the cycle by linked names, so the linker names it by the user's.
  void find_cycles() {
    enum class Mark : uint8_t { Unseen, OnPath, Done };
    std::map<Declaration, Mark> marks;
    for (const Declaration& start : kept_) {
      if (marks[start] != Mark::Unseen) continue;
      // Iterative depth-first search: (declaration, next reference to follow).
      std::vector<std::pair<Declaration, size_t>> path{{start, 0}};
      marks[start] = Mark::OnPath;
      while (!path.empty()) {
        auto& [declaration, next] = path.back();
        const std::vector<std::optional<Declaration>>& targets = targets_[declaration];
        if (next == targets.size()) {
          marks[declaration] = Mark::Done;
          path.pop_back();
          continue;
        }
        const size_t r = next++;
        if (!targets[r]) continue;
        const Declaration target = *targets[r];
        if (marks[target] == Mark::OnPath) {
          report_cycle(path, target, r);
          return;
        }
        if (marks[target] == Mark::Unseen) {
          marks[target] = Mark::OnPath;
          path.push_back({target, 0});
        }
      }
    }
  }

  std::string qualified(Declaration d) const {
    const Module& module = modules_[d.first];
    return module.name + "::" + module.parsed.items[d.second].name;
  }

  void report_cycle(const std::vector<std::pair<Declaration, size_t>>& path, Declaration target, size_t reference) {
    std::vector<std::string> names;
    bool on = false;
    for (const auto& [declaration, next] : path) {
      if (declaration == target) on = true;
      if (on) names.push_back(qualified(declaration));
    }
    names.push_back(qualified(target));
    const Declaration last = path.back().first;
    const wesl::Reference& site = modules_[last.first].parsed.items[last.second].references[reference];
    fail(last.first, site.begin, MessageId::WeslDeclarationCycle,
         fmt::format("declarations depend on themselves: {} (WGSL allows no recursion or cyclic declarations)",
                     join(names, " -> ")));
  }

  // --- output --------------------------------------------------------------------------------

  bool is_root(size_t m) const { return m == 0; }

  void assign_names() {
    std::set<std::string, std::less<>> taken;
    for (const Declaration& d : kept_) {
      const wesl::Item& item = modules_[d.first].parsed.items[d.second];
      taken.insert(item.locals.begin(), item.locals.end());
      if (is_root(d.first) && !item.name.empty()) taken.insert(item.name);
    }
    for (const Declaration& d : kept_) {
      const wesl::Item& item = modules_[d.first].parsed.items[d.second];
      if (item.name.empty()) continue;
      if (is_root(d.first)) {
        names_[d] = item.name;
        continue;
      }
      std::vector<std::string> segments = modules_[d.first].segments;
      segments.push_back(item.name);
      const std::string base = path_name(segments);
      std::string name = base;
      for (int n = 1; taken.count(name) != 0; ++n) name = fmt::format("{}_{}", base, n);
      taken.insert(name);
      names_[d] = name;
    }
  }

  void copy(size_t m, uint32_t begin, uint32_t end) {
    if (end <= begin) return;
    segments_.push_back({static_cast<uint32_t>(out_.wgsl.size()), end - begin,
                         static_cast<uint32_t>(modules_[m].file_index), begin, true});
    out_.wgsl.append(modules_[m].text, begin, end - begin);
  }

  void write_name(size_t m, const std::string& name, uint32_t source_begin) {
    segments_.push_back({static_cast<uint32_t>(out_.wgsl.size()), static_cast<uint32_t>(name.size()),
                         static_cast<uint32_t>(modules_[m].file_index), source_begin, false});
    out_.wgsl += name;
  }

  void emit_item(Declaration d) {
    const Module& module = modules_[d.first];
    const wesl::Item& item = module.parsed.items[d.second];
    struct Edit {
      uint32_t begin, end;
      const std::string* name;  // null: removed
    };
    std::vector<Edit> edits;
    for (const wesl::Removal& removal : item.removals) edits.push_back({removal.begin, removal.end, nullptr});
    const std::vector<std::optional<Declaration>>& targets = targets_[d];
    for (size_t r = 0; r < item.references.size(); ++r) {
      if (!targets[r]) continue;
      const wesl::Reference& reference = item.references[r];
      const std::string& name = names_.at(*targets[r]);
      const std::string_view written(module.text.data() + reference.begin, reference.end - reference.begin);
      if (written != name) edits.push_back({reference.begin, reference.end, &name});
    }
    // A declaration's own name, when it is renamed.
    if (!item.name.empty() && names_.at(d) != item.name) {
      edits.push_back({item.name_offset, static_cast<uint32_t>(item.name_offset + item.name.size()), &names_.at(d)});
    }
    std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
      return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
    });
    uint32_t position = item.begin;
    for (const Edit& edit : edits) {
      if (edit.begin < position) continue;  // inside a removal already made
      copy(d.first, position, edit.begin);
      if (edit.name != nullptr) write_name(d.first, *edit.name, edit.begin);
      position = edit.end;
    }
    copy(d.first, position, item.end);
  }

  void emit() {
    std::set<std::string> directives;
    for (const Declaration& d : kept_) {
      const wesl::Item& item = modules_[d.first].parsed.items[d.second];
      if (item.kind != wesl::ItemKind::Directive) continue;
      // The same directive from two modules is written once.
      std::string key;
      for (const wesl::Token& token : wesl::tokenize(std::string_view(modules_[d.first].text).substr(
               item.begin, item.end - item.begin)).tokens) {
        key += modules_[d.first].text.substr(item.begin + token.begin, token.end - token.begin) + " ";
      }
      if (!directives.insert(key).second) continue;
      emit_item(d);
      out_.wgsl += "\n";
    }
    // The root's declarations in the order written, then the others in the order reached.
    std::vector<Declaration> order;
    for (const Declaration& d : kept_) {
      if (is_root(d.first)) order.push_back(d);
    }
    std::sort(order.begin(), order.end());
    for (const Declaration& d : kept_) {
      if (!is_root(d.first)) order.push_back(d);
    }
    for (const Declaration& d : order) {
      if (modules_[d.first].parsed.items[d.second].kind == wesl::ItemKind::Directive) continue;
      if (!out_.wgsl.empty()) out_.wgsl += "\n\n";
      emit_item(d);
    }
    out_.wgsl += "\n";
  }

  std::string import_chain(size_t m) const {
    std::vector<std::string> steps;
    for (size_t at = m; modules_[at].importer;) {
      const size_t importer = *modules_[at].importer;
      const auto [line, column] = line_and_column(modules_[importer].text, modules_[at].imported_at);
      steps.push_back(fmt::format("{} is imported at {}:{}:{}", modules_[at].display.empty() ? modules_[at].name : modules_[at].display,
                                  modules_[importer].display, line, column));
      at = importer;
    }
    return join(steps, ", and ");
  }

  void finish_files() {
    std::vector<WeslSourceMap::File> files;
    for (size_t m = 0; m < modules_.size(); ++m) {
      if (!modules_[m].has_file) continue;
      out_.files.push_back(modules_[m].file);
      files.push_back({modules_[m].display, modules_[m].text, import_chain(m)});
    }
    out_.source_map = WeslSourceMap(out_.wgsl, std::move(files), std::move(segments_));
  }

  // A linker error at a byte offset of module `m`.
  void fail(size_t m, uint32_t offset, MessageId id, std::string message) {
    const Module& module = modules_[m];
    const auto [line, column] = line_and_column(module.text, offset);
    ShaderDiagnostic diagnostic{Severity::Error, module.display, line, column, std::move(message), id};
    if (module.importer) diagnostic.notes.push_back(import_chain(m));
    out_.diagnostics.push_back(std::move(diagnostic));
  }

  std::filesystem::path root_file_;
  const WeslOptions& options_;
  std::filesystem::path package_root_;
  WeslFileReader read_;
  std::deque<Module> modules_;
  std::map<std::string, size_t, std::less<>> by_name_;
  std::vector<Declaration> kept_;
  std::set<Declaration> kept_set_;
  std::set<size_t> modules_with_kept_;
  std::map<Declaration, std::vector<std::optional<Declaration>>> targets_;
  std::map<Declaration, std::string> names_;
  std::vector<WeslSourceMap::Segment> segments_;
  int file_count_ = 0;
  LinkedShader out_;
};

}  // namespace

WeslSourceMap::WeslSourceMap(std::string linked, std::vector<File> files, std::vector<Segment> segments)
    : files_(std::make_shared<const std::vector<File>>(std::move(files))), segments_(std::move(segments)) {
  linked_lines_.push_back(0);
  for (size_t i = 0; i < linked.size();) {
    const size_t length = line_break_length(linked, i);
    if (length == 0) {
      ++i;
      continue;
    }
    i += length;
    linked_lines_.push_back(static_cast<uint32_t>(i));
  }
}

std::optional<SourcePlace> WeslSourceMap::locate(uint32_t line, uint32_t column) const {
  if (line == 0 || line > linked_lines_.size() || segments_.empty()) return std::nullopt;
  const uint32_t offset = linked_lines_[line - 1] + (column == 0 ? 0 : column - 1);
  auto after = std::upper_bound(segments_.begin(), segments_.end(), offset,
                                [](uint32_t value, const Segment& s) { return value < s.linked_begin; });
  if (after == segments_.begin()) return std::nullopt;
  const Segment& segment = *std::prev(after);
  uint32_t source = segment.source_begin;
  // Past a segment's end (the break the linker wrote after it) is its end.
  if (segment.copied) source += std::min(offset - segment.linked_begin, segment.length);
  const File& file = (*files_)[segment.file];
  const auto [source_line, source_column] = line_and_column(file.text, source);
  return SourcePlace{file.path, source_line, source_column};
}

const WeslSourceMap::File* WeslSourceMap::file(std::string_view path) const {
  for (const File& f : *files_) {
    if (f.path == path) return &f;
  }
  return nullptr;
}

LinkedShader link_wesl_text(const std::filesystem::path& root_file, std::string_view root_text,
                            const WeslOptions& options) {
  return Linker(root_file, options).run(root_text);
}

Result<LinkedShader> link_wesl(const std::filesystem::path& root_file, const WeslOptions& options) {
  auto text = options.read_file ? options.read_file(root_file) : read_source(root_file);
  if (!text) return text.error();
  return link_wesl_text(root_file, text->text, options);
}

bool uses_wesl(std::string_view source) { return wesl::uses_wesl_syntax(source); }

bool is_wesl_file(const std::filesystem::path& path, std::string_view source) {
  return path.extension() == ".wesl" || uses_wesl(source);
}

std::vector<ShaderDiagnostic> map_to_sources(const LinkedShader& linked, std::vector<ShaderDiagnostic> diagnostics) {
  for (ShaderDiagnostic& d : diagnostics) {
    if (d.line == 0) continue;
    const std::optional<SourcePlace> place = linked.source_map.locate(d.line, d.column);
    if (!place) continue;
    d.linked_line = d.line;
    d.linked_column = d.column;
    d.path = place->path;
    d.line = place->line;
    d.column = place->column;
    if (const WeslSourceMap::File* file = linked.source_map.file(d.path); file && !file->import_chain.empty()) {
      d.notes.push_back(file->import_chain);
    }
  }
  return diagnostics;
}

}  // namespace warden::shaders
