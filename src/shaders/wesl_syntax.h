// What the WESL linker reads of one module: its tokens, imports, and module-scope items with the
// places in them that name something outside the item. Conditional translation (@if, @elif,
// @else) is applied while reading, so a module is read once per set of feature values.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "warden/core/messages.h"

namespace warden::shaders::wesl {

enum class TokenKind : uint8_t { Identifier, Number, Symbol };

// One token: a byte range of the module's text.
struct Token {
  TokenKind kind = TokenKind::Symbol;
  uint32_t begin = 0;
  uint32_t end = 0;
};

// A module's text cut into tokens; comments and blankspace are dropped. `error_at` is the offset
// of an unterminated block comment, or UINT32_MAX.
struct Tokens {
  std::vector<Token> tokens;
  uint32_t error_at = UINT32_MAX;
};
Tokens tokenize(std::string_view text);

// A mistake in a module, at a byte offset of its text.
struct SyntaxError {
  uint32_t offset = 0;
  MessageId id = MessageId::WeslSyntaxError;
  std::string message;
};

// One flattened import: `import a::{b, c as d};` gives a::b (alias b) and a::c (alias d).
struct Import {
  std::vector<std::string> path;  // as written, `package` and `super` included
  std::string alias;              // the name it brings into the module
  uint32_t begin = 0;             // the path's place, for messages
  uint32_t end = 0;
};

// A name used in an item that no enclosing local scope declares: a module-scope declaration of
// this module, an import, a qualified path (`package::util::K`, `circle::radius`), or a
// predeclared name. The linker decides which.
struct Reference {
  std::vector<std::string> path;  // one segment for a plain identifier
  uint32_t begin = 0;             // the source bytes the linked name replaces
  uint32_t end = 0;
};

// A byte range of the text left out of the linked output: a node whose condition is false, or a
// translate-time attribute itself.
struct Removal {
  uint32_t begin = 0;
  uint32_t end = 0;
};

enum class ItemKind : uint8_t { Directive, Function, Struct, Variable, Constant, Override, Alias, ConstAssert };

// A module-scope item that survived conditional translation.
struct Item {
  ItemKind kind = ItemKind::Function;
  std::string name;         // empty for directives and const_assert
  uint32_t name_offset = 0;
  uint32_t begin = 0;       // its first byte (its first attribute) .. one past its last
  uint32_t end = 0;
  bool entry_point = false;
  std::vector<Removal> removals;      // in text order, possibly nested
  std::vector<Reference> references;  // in text order
  std::vector<std::string> locals;    // every name a local scope of the item declares
};

// A module as the linker sees it, for one set of feature values.
struct ParsedModule {
  std::vector<Import> imports;
  std::vector<Item> items;
  std::vector<std::string> features_used;  // every feature a condition read, once each
  std::vector<SyntaxError> errors;
};

// Translate-time feature values; a condition naming a feature absent here is an error.
using Features = std::map<std::string, bool, std::less<>>;

ParsedModule parse_module(std::string_view text, const Features& features);

// True when `text` uses WESL: an import statement or a translate-time attribute.
bool uses_wesl_syntax(std::string_view text);

}  // namespace warden::shaders::wesl
