/// @file
/// The WESL linker: shader modules with imports and conditional translation, linked into one
/// WGSL text with a source map back to the files the user wrote (docs/shader-modules.md).
///
/// WESL is WGSL with `import` statements (`import package::lighting::{pbr, Light as L};`,
/// `super::`, packages the application declares, module imports used inline as
/// `shapes::circle(...)`), qualified names in code (`package::util::K`), and `\@if`, `\@elif`,
/// `\@else` on declarations, imports, members, parameters, statements and switch clauses. The
/// linker keeps the root module's declarations under their own names, gives every other
/// declaration it keeps the module's path as a prefix (`package::util::fade` becomes
/// `package_util_fade`; a segment holding `_` is written `_<count><segment>`), and leaves out
/// what the root module's declarations never reach. A plain WGSL file is compiled as it is.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warden/core/result.h"
#include "warden/shaders/diagnostic.h"
#include "warden/shaders/source_file.h"

namespace warden::shaders {

/// A package the application declares: `import name::a::b` finds module `a` at `root/a.wesl`
/// (or `.wgsl`), and `import name::f` finds `f` in `root/lib.wesl`.
struct WeslPackage {
  std::string name{};            ///< the first segment of its paths: `import name::...`
  std::filesystem::path root{};  ///< the folder its modules are in
};

/// Reads one module file: read_source by default. Tests and benchmarks give their own.
using WeslFileReader = std::function<Result<SourceText>(const std::filesystem::path&)>;

/// What a link needs besides the root file.
struct WeslOptions {
  /// The folder `package::` names; empty: the root file's folder.
  std::filesystem::path package_root{};
  /// Packages besides the application's own.
  std::vector<WeslPackage> packages{};
  /// Translate-time features: every feature an \@if or \@elif reads must have a value here
  /// (shaders.WeslUnknownFeature otherwise).
  std::map<std::string, bool, std::less<>> features{};
  /// Empty: read_source.
  WeslFileReader read_file{};
};

/// A place in a file the user wrote.
struct SourcePlace {
  std::string path{};   ///< the file, as the link named it
  uint32_t line = 0;    ///< 1-based
  uint32_t column = 0;  ///< 1-based, in UTF-8 bytes like the compiler's columns
};

/// From a place in linked WGSL back to the file, line and column it was copied from.
class WeslSourceMap {
 public:
  /// One module file of the link.
  struct File {
    std::string path;  ///< as the link named it (the package root joined with the module's path)
    std::string text;  ///< what the link read
    std::string import_chain;  ///< how the root reaches it; empty for the root module
  };
  /// A run of linked text copied from one file (or written in place of a name there).
  struct Segment {
    uint32_t linked_begin = 0;  ///< offset in the linked text
    uint32_t length = 0;  ///< linked bytes
    uint32_t file = 0;          ///< index in files()
    uint32_t source_begin = 0;  ///< offset in that file's text
    bool copied = true;  ///< false: a linked name written in place of the source's name
  };

  WeslSourceMap() = default;
  /// The map of `linked`, made of `segments` (in linked order) of `files`.
  WeslSourceMap(std::string linked, std::vector<File> files, std::vector<Segment> segments);

  /// The place of a 1-based line and byte column of the linked text; nullopt for text the
  /// linker wrote itself (the breaks between declarations) or a place past the end.
  std::optional<SourcePlace> locate(uint32_t line, uint32_t column) const;
  /// The text of a file of the link by its path; null when it is not one.
  const File* file(std::string_view path) const;
  /// Every file of the link, the root first.
  const std::vector<File>& files() const { return *files_; }

 private:
  std::shared_ptr<const std::vector<File>> files_ = std::make_shared<std::vector<File>>();
  std::vector<Segment> segments_;
  std::vector<uint32_t> linked_lines_;  // offset of each line's first byte
};

/// The result of a link.
struct LinkedShader {
  /// The linked WGSL; empty when `diagnostics` holds an error.
  std::string wgsl{};
  /// From the linked text back to the files (also on failure: the files read so far).
  WeslSourceMap source_map{};
  /// Every file the link read, the root first: the files hot reload watches.
  std::vector<std::filesystem::path> files{};
  /// Every feature a condition read.
  std::vector<std::string> features_used{};
  /// The linker's errors, each at its file, line and column.
  std::vector<ShaderDiagnostic> diagnostics{};

  /// True when the link made WGSL.
  bool ok() const { return !has_error(diagnostics); }
};

/// Links the module in `root_file` and every module it imports. An Error only when the root
/// file cannot be read (read_source's errors); a module it imports that cannot be found or read,
/// and every mistake of WESL, is a diagnostic of the result.
Result<LinkedShader> link_wesl(const std::filesystem::path& root_file, const WeslOptions& options = {});

/// The same with the root module's text given; `root_file` names it (and its folder is the
/// package root unless the options say otherwise).
LinkedShader link_wesl_text(const std::filesystem::path& root_file, std::string_view root_text,
                            const WeslOptions& options = {});

/// True when `source` uses WESL (an import or a translate-time attribute): plain WGSL goes to
/// the compiler as it is.
bool uses_wesl(std::string_view source);

/// True when the file at `path` holding `source` is linked before it is compiled: it is named
/// .wesl, or uses_wesl(source). ShaderManager, hot reload and `warden shader check` decide alike.
bool is_wesl_file(const std::filesystem::path& path, std::string_view source);

/// The compiler's diagnostics on linked WGSL, moved to the files the user wrote: each keeps its
/// place in the linked text (linked_line, linked_column), and one in an imported file gains a
/// note naming the import chain.
std::vector<ShaderDiagnostic> map_to_sources(const LinkedShader& linked, std::vector<ShaderDiagnostic> diagnostics);

}  // namespace warden::shaders
