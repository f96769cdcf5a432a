#include "shaders/wesl_syntax.h"

#include <algorithm>
#include <array>
#include <optional>

#include <fmt/format.h>

namespace warden::shaders::wesl {
namespace {

bool identifier_start(unsigned char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80; }
bool identifier_part(unsigned char c) { return identifier_start(c) || (c >= '0' && c <= '9'); }
bool digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool blank(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

// Longest first, so that `<<=` is one token, not `<<` and `=`.
constexpr std::array<std::string_view, 22> kMultiCharSymbols = {
    "<<=", ">>=", "::", "->", "&&", "||", "==", "!=", "<=", ">=", "<<",
    ">>",  "+=",  "-=", "*=", "/=", "%=", "&=", "|=", "^=", "++", "--"};

// WGSL's keywords that can stand where a name could: never a reference.
constexpr std::array<std::string_view, 25> kKeywords = {
    "alias", "break",  "case",     "const",  "const_assert", "continue", "continuing", "default", "diagnostic",
    "discard", "else", "enable",   "false",  "fn",           "for",      "if",         "let",     "loop",
    "override", "requires", "return", "struct", "switch",    "true",     "while"};

bool is_keyword(std::string_view word) {
  return std::find(kKeywords.begin(), kKeywords.end(), word) != kKeywords.end() || word == "var";
}

// WESL's own keywords, never names in an import path (package and super are handled apart).
bool is_wesl_keyword(std::string_view word) { return word == "as" || word == "import" || word == "self"; }

// Attributes whose arguments are words of their own, not expressions.
bool attribute_takes_words(std::string_view name) {
  return name == "builtin" || name == "interpolate" || name == "diagnostic";
}

}  // namespace

Tokens tokenize(std::string_view text) {
  Tokens out;
  const auto at = [&](size_t i) -> unsigned char { return i < text.size() ? static_cast<unsigned char>(text[i]) : 0; };
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = at(i);
    if (blank(c)) {
      ++i;
    } else if (c == 0xC2 && at(i + 1) == 0x85) {  // NEL: a line break in WGSL
      i += 2;
    } else if (c == 0xE2 && at(i + 1) == 0x80 && (at(i + 2) == 0xA8 || at(i + 2) == 0xA9)) {
      i += 3;
    } else if (c == '/' && at(i + 1) == '/') {
      while (i < text.size() && at(i) != '\n' && at(i) != '\r') ++i;
    } else if (c == '/' && at(i + 1) == '*') {
      // Block comments nest in WGSL.
      const size_t start = i;
      int depth = 0;
      do {
        if (at(i) == '/' && at(i + 1) == '*') {
          ++depth;
          i += 2;
        } else if (at(i) == '*' && at(i + 1) == '/') {
          --depth;
          i += 2;
        } else {
          ++i;
        }
      } while (depth > 0 && i < text.size());
      if (depth > 0) {
        out.error_at = static_cast<uint32_t>(start);
        return out;
      }
    } else if (digit(c) || (c == '.' && digit(at(i + 1)))) {
      const size_t start = i;
      const bool hex = c == '0' && (at(i + 1) == 'x' || at(i + 1) == 'X');
      ++i;
      while (i < text.size()) {
        const unsigned char d = at(i);
        const unsigned char before = at(i - 1);
        const bool exponent_sign = (d == '+' || d == '-') &&
                                   (hex ? (before == 'p' || before == 'P') : (before == 'e' || before == 'E'));
        if (identifier_part(d) || d == '.' || exponent_sign) {
          ++i;
        } else {
          break;
        }
      }
      out.tokens.push_back({TokenKind::Number, static_cast<uint32_t>(start), static_cast<uint32_t>(i)});
    } else if (identifier_start(c)) {
      const size_t start = i;
      while (i < text.size() && identifier_part(at(i))) ++i;
      out.tokens.push_back({TokenKind::Identifier, static_cast<uint32_t>(start), static_cast<uint32_t>(i)});
    } else {
      size_t length = 1;
      for (std::string_view symbol : kMultiCharSymbols) {
        if (text.substr(i, symbol.size()) == symbol) {
          length = symbol.size();
          break;
        }
      }
      out.tokens.push_back({TokenKind::Symbol, static_cast<uint32_t>(i), static_cast<uint32_t>(i + length)});
      i += length;
    }
  }
  return out;
}

namespace {

// A translate-time attribute's kind.
enum class ConditionKind : uint8_t { None, If, Elif, Else };

struct Condition {
  ConditionKind kind = ConditionKind::None;
  bool value = true;
};

// @if / @elif / @else across the siblings of one list (module items, statements of a block,
// members, parameters, switch clauses): whether each is kept.
class ConditionChain {
 public:
  // nullopt: an @elif or @else with no @if before it.
  std::optional<bool> keep(Condition condition) {
    switch (condition.kind) {
      case ConditionKind::None:
        open_ = false;
        return true;
      case ConditionKind::If:
        open_ = true;
        taken_ = condition.value;
        return condition.value;
      case ConditionKind::Elif: {
        if (!open_) return std::nullopt;
        const bool keep = !taken_ && condition.value;
        taken_ = taken_ || keep;
        return keep;
      }
      case ConditionKind::Else: {
        if (!open_) return std::nullopt;
        open_ = false;
        return !taken_;
      }
    }
    return true;
  }

 private:
  bool open_ = false;
  bool taken_ = false;
};

struct Attribute {
  size_t at = 0;          // the '@' token
  std::string_view name;
  size_t open = SIZE_MAX;  // '(' token, SIZE_MAX when there are no arguments
  size_t end = 0;          // one past the attribute's last token
};

class Parser {
 public:
  Parser(std::string_view text, const Features& features) : text_(text), features_(features) {}

  ParsedModule run() {
    Tokens tokens = tokenize(text_);
    tokens_ = std::move(tokens.tokens);
    if (tokens.error_at != UINT32_MAX) {
      fail(tokens.error_at, "a block comment is never closed");
      return std::move(out_);
    }
    if (!match_brackets()) return std::move(out_);
    ConditionChain chain;
    size_t i = 0;
    bool declarations_began = false;
    while (i < tokens_.size() && out_.errors.empty()) {
      const size_t start = i;
      removals_.clear();
      references_.clear();
      locals_.clear();
      scopes_.clear();
      std::vector<Attribute> attributes = read_attributes(i);
      if (i >= tokens_.size()) {
        fail_at_token(start, "attributes with nothing after them");
        break;
      }
      const Condition condition = read_condition(attributes);
      const std::optional<bool> keep = chain.keep(condition);
      if (!keep) {
        fail_at_token(start, "an @elif or @else must follow an item with @if or @elif");
        break;
      }
      const std::string_view word = text(i);
      if (word == "import") {
        if (declarations_began) {
          fail_at_token(i, "imports come before every directive and declaration of a module");
          break;
        }
        i = read_import(i, *keep);
        continue;
      }
      if (word != "enable" && word != "requires" && word != "diagnostic") declarations_began = true;
      Item item;
      item.begin = tokens_[start].begin;
      for (const Attribute& attribute : attributes) {
        if (attribute.name == "vertex" || attribute.name == "fragment" || attribute.name == "compute") {
          item.entry_point = true;
        }
      }
      scan_attributes(attributes);
      const size_t end = read_item(i, item);
      if (!out_.errors.empty()) break;
      item.end = tokens_[end - 1].end;
      i = end;
      if (!*keep || word == ";") continue;
      item.removals = std::move(removals_);
      item.references = std::move(references_);
      item.locals = std::move(locals_);
      out_.items.push_back(std::move(item));
    }
    return std::move(out_);
  }

 private:
  std::string_view text(size_t i) const {
    if (i >= tokens_.size()) return {};
    return text_.substr(tokens_[i].begin, tokens_[i].end - tokens_[i].begin);
  }
  bool is(size_t i, std::string_view word) const { return text(i) == word; }
  bool identifier(size_t i) const { return i < tokens_.size() && tokens_[i].kind == TokenKind::Identifier; }

  void fail(uint32_t offset, std::string message, MessageId id = MessageId::WeslSyntaxError) {
    out_.errors.push_back({offset, id, std::move(message)});
  }
  void fail_at_token(size_t i, std::string message, MessageId id = MessageId::WeslSyntaxError) {
    const uint32_t offset = i < tokens_.size() ? tokens_[i].begin : static_cast<uint32_t>(text_.size());
    fail(offset, std::move(message), id);
  }

  // Pairs every bracket with its partner; an unbalanced one is the module's error.
  bool match_brackets() {
    partner_.assign(tokens_.size(), SIZE_MAX);
    std::vector<size_t> open;
    for (size_t i = 0; i < tokens_.size(); ++i) {
      const std::string_view t = text(i);
      if (tokens_[i].kind != TokenKind::Symbol) continue;
      if (t == "(" || t == "[" || t == "{") {
        open.push_back(i);
      } else if (t == ")" || t == "]" || t == "}") {
        const char expected = t == ")" ? '(' : t == "]" ? '[' : '{';
        if (open.empty()) {
          fail_at_token(i, fmt::format("'{}' closes nothing that is open here", t));
          return false;
        }
        if (text(open.back())[0] != expected) {
          fail_at_token(open.back(), fmt::format("'{}' is never closed ('{}' comes first)", text(open.back()), t));
          return false;
        }
        partner_[open.back()] = i;
        partner_[i] = open.back();
        open.pop_back();
      }
    }
    if (!open.empty()) {
      fail_at_token(open.back(), fmt::format("'{}' is never closed", text(open.back())));
      return false;
    }
    return true;
  }

  // The next token at bracket depth 0 from `i` that is one of `stops` (at most `limit`).
  size_t find(size_t i, size_t limit, std::initializer_list<std::string_view> stops) const {
    while (i < limit) {
      const std::string_view t = text(i);
      for (std::string_view stop : stops) {
        if (t == stop) return i;
      }
      if (partner_[i] != SIZE_MAX && partner_[i] > i) {
        i = partner_[i] + 1;
      } else {
        ++i;
      }
    }
    return limit;
  }

  // The ',' that ends a member or parameter (or `close`): a type's template arguments
  // (`array<f32, 4>`) hold commas of their own.
  size_t find_list_end(size_t i, size_t close) const {
    int angles = 0;
    while (i < close) {
      const std::string_view t = text(i);
      if (t == "<") ++angles;
      if (t == ">") --angles;
      if (t == ">>") angles -= 2;
      if (t == "," && angles <= 0) return i;
      i = partner_[i] != SIZE_MAX && partner_[i] > i ? partner_[i] + 1 : i + 1;
    }
    return close;
  }

  std::vector<Attribute> read_attributes(size_t& i) {
    std::vector<Attribute> attributes;
    while (i < tokens_.size() && is(i, "@")) {
      Attribute attribute;
      attribute.at = i;
      if (!identifier(i + 1)) {
        fail_at_token(i, "'@' must be followed by an attribute name");
        return attributes;
      }
      attribute.name = text(i + 1);
      i += 2;
      if (is(i, "(")) {
        attribute.open = i;
        i = partner_[i] + 1;
      }
      attribute.end = i;
      attributes.push_back(attribute);
    }
    return attributes;
  }

  // The references in attribute arguments that are expressions (@group(G), @workgroup_size(N)).
  void scan_attributes(const std::vector<Attribute>& attributes) {
    for (const Attribute& attribute : attributes) {
      if (attribute.open == SIZE_MAX || attribute_takes_words(attribute.name)) continue;
      if (attribute.name == "if" || attribute.name == "elif") continue;
      scan(attribute.open + 1, partner_[attribute.open]);
    }
  }

  // The one translate-time attribute among `attributes`, evaluated; its tokens are removed.
  Condition read_condition(const std::vector<Attribute>& attributes) {
    Condition condition;
    for (const Attribute& attribute : attributes) {
      ConditionKind kind = ConditionKind::None;
      if (attribute.name == "if") kind = ConditionKind::If;
      if (attribute.name == "elif") kind = ConditionKind::Elif;
      if (attribute.name == "else") kind = ConditionKind::Else;
      if (kind == ConditionKind::None) continue;
      if (condition.kind != ConditionKind::None) {
        fail_at_token(attribute.at, "a node takes at most one of @if, @elif and @else");
        return condition;
      }
      condition.kind = kind;
      const bool has_arguments = attribute.open != SIZE_MAX;
      if (kind == ConditionKind::Else && has_arguments) {
        fail_at_token(attribute.open, "@else takes no condition");
        return condition;
      }
      if (kind != ConditionKind::Else) {
        if (!has_arguments) {
          fail_at_token(attribute.at, fmt::format("@{} needs a condition in parentheses", attribute.name));
          return condition;
        }
        size_t j = attribute.open + 1;
        const size_t close = partner_[attribute.open];
        condition.value = evaluate_or(j, close);
        if (out_.errors.empty() && j != close) fail_at_token(j, "a condition takes features, !, &&, || and parentheses");
      }
      removals_.push_back({tokens_[attribute.at].begin, tokens_[attribute.end - 1].end});
    }
    return condition;
  }

  bool evaluate_or(size_t& j, size_t close) {
    bool value = evaluate_and(j, close);
    while (j < close && is(j, "||")) {
      ++j;
      const bool right = evaluate_and(j, close);  // every operand is read, so each name is checked
      value = value || right;
    }
    return value;
  }
  bool evaluate_and(size_t& j, size_t close) {
    bool value = evaluate_unary(j, close);
    while (j < close && is(j, "&&")) {
      ++j;
      const bool right = evaluate_unary(j, close);
      value = value && right;
    }
    return value;
  }
  bool evaluate_unary(size_t& j, size_t close) {
    if (j >= close) {
      fail_at_token(j, "a condition ends where a feature name was expected");
      return false;
    }
    if (is(j, "!")) {
      ++j;
      return !evaluate_unary(j, close);
    }
    if (is(j, "(")) {
      const size_t inner_close = partner_[j];
      ++j;
      const bool value = evaluate_or(j, inner_close);
      if (j != inner_close) fail_at_token(j, "a condition takes features, !, &&, || and parentheses");
      j = inner_close + 1;
      return value;
    }
    if (is(j, "true") || is(j, "false")) return text(j++) == "true";
    if (!identifier(j)) {
      fail_at_token(j, fmt::format("'{}' is not a feature name", text(j)));
      ++j;
      return false;
    }
    const std::string_view name = text(j);
    if (std::find(out_.features_used.begin(), out_.features_used.end(), name) == out_.features_used.end()) {
      out_.features_used.emplace_back(name);
    }
    const auto found = features_.find(name);
    if (found == features_.end()) {
      fail_at_token(j,
                    fmt::format("feature '{}' is not set: give it a value (true or false) where the shader is linked",
                                name),
                    MessageId::WeslUnknownFeature);
      ++j;
      return false;
    }
    ++j;
    return found->second;
  }

  // import_statement, flattened into out_.imports when kept. Returns the index after its ';'.
  size_t read_import(size_t i, bool keep) {
    const size_t semicolon = find(i + 1, tokens_.size(), {";"});
    if (semicolon == tokens_.size()) {
      fail_at_token(i, "an import ends with ';'");
      return semicolon;
    }
    std::vector<Import> imports;
    size_t j = i + 1;
    read_import_tree(j, semicolon, {}, imports, true);
    if (out_.errors.empty() && j != semicolon) fail_at_token(j, "expected ';' after the import");
    if (keep) out_.imports.insert(out_.imports.end(), imports.begin(), imports.end());
    return semicolon + 1;
  }

  // import_path_or_item, or (where `collection_allowed`: the start of the statement, or after
  // '::') an import_collection.
  void read_import_tree(size_t& j, size_t limit, std::vector<std::string> prefix, std::vector<Import>& imports,
                        bool first) {
    const size_t path_begin = j;
    bool collection_allowed = first;
    for (;;) {
      if (j >= limit) {
        fail_at_token(j, "an import path ends early");
        return;
      }
      if (is(j, "{")) {
        if (!collection_allowed) {
          fail_at_token(j, "a collection '{...}' comes at the start of an import or after '::'");
          return;
        }
        const size_t close = partner_[j];
        if (close == j + 1) {
          fail_at_token(j, "an import collection '{}' names nothing");
          return;
        }
        ++j;
        while (j < close && out_.errors.empty()) {
          read_import_tree(j, close, prefix, imports, false);
          if (j < close && is(j, ",")) ++j;
          else if (j < close && out_.errors.empty()) fail_at_token(j, "expected ',' or '}' in an import collection");
        }
        j = close + 1;
        return;
      }
      collection_allowed = false;
      if (!identifier(j) || is_keyword(text(j)) || is_wesl_keyword(text(j))) {
        fail_at_token(j, fmt::format("'{}' cannot be part of an import path", text(j)));
        return;
      }
      const std::string segment(text(j));
      const bool relative_word = segment == "package" || segment == "super";
      if (relative_word && !(first && (prefix.empty() || (segment == "super" && prefix.back() == "super")))) {
        fail_at_token(j, fmt::format("'{}' may only begin an import path", segment));
        return;
      }
      prefix.push_back(segment);
      ++j;
      if (j < limit && is(j, "::")) {
        ++j;
        collection_allowed = true;
        continue;
      }
      if (relative_word) {
        fail_at_token(j - 1, fmt::format("an import names something after '{}::'", segment));
        return;
      }
      Import import;
      import.path = prefix;
      import.alias = segment;
      import.begin = tokens_[path_begin].begin;
      import.end = tokens_[j - 1].end;
      if (j < limit && is(j, "as")) {
        if (!identifier(j + 1) || is_keyword(text(j + 1)) || is_wesl_keyword(text(j + 1))) {
          fail_at_token(j + 1, "'as' must be followed by a name");
          return;
        }
        import.alias = std::string(text(j + 1));
        import.end = tokens_[j + 1].end;
        j += 2;
      }
      imports.push_back(std::move(import));
      return;
    }
  }

  // One module-scope item starting at `i` (after its attributes). Returns one past its end.
  size_t read_item(size_t i, Item& item) {
    const std::string_view word = text(i);
    if (word == ";") return i + 1;
    if (word == "enable" || word == "requires" || word == "diagnostic") {
      item.kind = ItemKind::Directive;
      return expect_semicolon(i);
    }
    if (word == "fn") return read_function(i, item);
    if (word == "struct") return read_struct(i, item);
    if (word == "const_assert") {
      item.kind = ItemKind::ConstAssert;
      const size_t semicolon = expect_semicolon(i) - 1;
      scan(i + 1, semicolon);
      return semicolon + 1;
    }
    if (word == "var" || word == "const" || word == "override" || word == "alias") {
      item.kind = word == "var" ? ItemKind::Variable : word == "const" ? ItemKind::Constant
                  : word == "override" ? ItemKind::Override : ItemKind::Alias;
      size_t j = i + 1;
      if (word == "var") j = skip_template(j);
      if (!name_at(j, item)) return j + 1;
      const size_t semicolon = expect_semicolon(j) - 1;
      scan(j + 1, semicolon);
      return semicolon + 1;
    }
    fail_at_token(i, fmt::format("expected a declaration (fn, struct, var, const, override, alias, const_assert) "
                                 "or a directive, found '{}'",
                                 word));
    return i + 1;
  }

  bool name_at(size_t j, Item& item) {
    if (!identifier(j) || is_keyword(text(j))) {
      fail_at_token(j, fmt::format("expected the declaration's name, found '{}'", text(j)));
      return false;
    }
    item.name = std::string(text(j));
    item.name_offset = tokens_[j].begin;
    return true;
  }

  size_t expect_semicolon(size_t i) {
    const size_t semicolon = find(i, tokens_.size(), {";"});
    if (semicolon == tokens_.size()) {
      fail_at_token(i, "expected ';' at the end of this");
      return tokens_.size();
    }
    return semicolon + 1;
  }

  // `var<storage, read_write>`: the template names an address space and access, never a declaration.
  size_t skip_template(size_t j) {
    if (!is(j, "<")) return j;
    while (j < tokens_.size() && !is(j, ">") && !is(j, ";")) ++j;
    return j + 1;
  }

  size_t read_function(size_t i, Item& item) {
    item.kind = ItemKind::Function;
    if (!name_at(i + 1, item)) return i + 2;
    size_t j = i + 2;
    if (!is(j, "(")) {
      fail_at_token(j, "expected '(' after the function's name");
      return j + 1;
    }
    const size_t close = partner_[j];
    scopes_.emplace_back();
    read_list(j + 1, close, [&](size_t name) { declare(text(name)); });
    j = close + 1;
    if (is(j, "->")) {
      ++j;
      std::vector<Attribute> attributes = read_attributes(j);
      scan_attributes(attributes);
      const size_t body = find(j, tokens_.size(), {"{"});
      scan(j, body);
      j = body;
    }
    if (!is(j, "{")) {
      fail_at_token(j, "expected the function's body");
      return j + 1;
    }
    const size_t end = read_block(j);
    scopes_.pop_back();
    return end;
  }

  size_t read_struct(size_t i, Item& item) {
    item.kind = ItemKind::Struct;
    if (!name_at(i + 1, item)) return i + 2;
    const size_t open = i + 2;
    if (!is(open, "{")) {
      fail_at_token(open, "expected '{' after the structure's name");
      return open + 1;
    }
    read_list(open + 1, partner_[open], [](size_t) {});
    return partner_[open] + 1;
  }

  // The siblings of one list from `j` to `close` (statements, members, parameters, switch
  // clauses), each after its attributes and perhaps under a condition. `read_node(j, keep)`
  // reads one node after its attributes and returns one past it. A node whose condition is
  // false is removed whole, attributes and all, and what reading it recorded (references,
  // locals, removals inside it) is taken back.
  template <typename ReadNode>
  void read_siblings(size_t j, size_t close, std::string_view what, ReadNode read_node) {
    ConditionChain chain;
    while (j < close && out_.errors.empty()) {
      const size_t start = j;
      std::vector<Attribute> attributes = read_attributes(j);
      const std::optional<bool> keep = chain.keep(read_condition(attributes));
      if (!keep) {
        fail_at_token(start, fmt::format("an @elif or @else must follow a {} with @if or @elif", what));
        return;
      }
      const size_t removals = removals_.size();
      const size_t references = references_.size();
      const size_t declared = scopes_.empty() ? 0 : scopes_.back().size();
      if (*keep) scan_attributes(attributes);
      const size_t end = read_node(j, *keep);
      if (!*keep) {
        removals_.resize(removals);
        references_.resize(references);
        if (!scopes_.empty()) scopes_.back().resize(declared);
        removals_.push_back({tokens_[start].begin, tokens_[end - 1].end});
      }
      j = end;
    }
  }

  // Members or parameters: `attributes name : type` separated by ','.
  template <typename OnName>
  void read_list(size_t j, size_t close, OnName on_name) {
    read_siblings(j, close, "member or parameter", [&](size_t k, bool keep) {
      if (!identifier(k) || !is(k + 1, ":")) {
        fail_at_token(k, fmt::format("expected 'name: type', found '{}'", text(k)));
        return close;
      }
      const size_t comma = find_list_end(k + 2, close);
      scan(k + 2, comma);
      if (keep) on_name(k);
      return comma < close ? comma + 1 : close;
    });
  }

  void declare(std::string_view name) {
    scopes_.back().emplace_back(name);
    if (std::find(locals_.begin(), locals_.end(), name) == locals_.end()) locals_.emplace_back(name);
  }
  bool is_local(std::string_view name) const {
    for (const auto& scope : scopes_) {
      if (std::find(scope.begin(), scope.end(), name) != scope.end()) return true;
    }
    return false;
  }

  // `{ statements }` at `open`; returns one past its '}'.
  size_t read_block(size_t open) {
    const size_t close = partner_[open];
    scopes_.emplace_back();
    read_statements(open + 1, close);
    scopes_.pop_back();
    return close + 1;
  }

  void read_statements(size_t j, size_t close) {
    read_siblings(j, close, "statement", [&](size_t k, bool) { return read_statement(k, close); });
  }

  // The expression from `j` to the '{' that opens a body; returns the '{'.
  size_t scan_to_body(size_t j, size_t close) {
    const size_t body = find(j, close, {"{"});
    if (body >= close) {
      fail_at_token(j, "expected '{'");
      return close;
    }
    scan(j, body);
    return body;
  }

  size_t read_statement(size_t j, size_t close) {
    const std::string_view word = text(j);
    if (word == ";") return j + 1;
    if (word == "{") return read_block(j);
    if (word == "loop" || word == "continuing") {
      if (!is(j + 1, "{")) {
        fail_at_token(j + 1, fmt::format("expected '{{' after {}", word));
        return close;
      }
      return read_block(j + 1);
    }
    if (word == "if" || word == "while") {
      size_t body = scan_to_body(j + 1, close);
      if (body >= close) return close;
      size_t end = read_block(body);
      while (word == "if" && is(end, "else")) {
        if (is(end + 1, "if")) {
          body = scan_to_body(end + 2, close);
        } else {
          body = end + 1;
          if (!is(body, "{")) {
            fail_at_token(body, "expected '{' after else");
            return close;
          }
        }
        if (body >= close) return close;
        end = read_block(body);
      }
      return end;
    }
    if (word == "for") return read_for(j, close);
    if (word == "switch") return read_switch(j, close);
    if (word == "let" || word == "const" || word == "var") {
      size_t name = word == "var" ? skip_template(j + 1) : j + 1;
      const size_t semicolon = find(name, close, {";"});
      if (!identifier(name)) {
        fail_at_token(name, fmt::format("expected the name declared by '{}'", word));
        return close;
      }
      if (semicolon >= close) {  // where the ';' is missing, as the compiler would say
        fail_at_token(close, fmt::format("expected ';' at the end of the '{}' declaration", word));
        return close;
      }
      scan(name + 1, semicolon);
      declare(text(name));  // its scope begins after its declaration
      return semicolon + 1;
    }
    const size_t semicolon = find(j, close, {";"});
    if (semicolon >= close) {  // where the ';' is missing, as the compiler would say
      fail_at_token(close, "expected ';' at the end of this statement");
      return close;
    }
    scan(j, semicolon);
    return semicolon + 1;
  }

  size_t read_for(size_t j, size_t close) {
    const size_t open = j + 1;
    if (!is(open, "(")) {
      fail_at_token(open, "expected '(' after for");
      return close;
    }
    const size_t header_close = partner_[open];
    scopes_.emplace_back();  // the initializer's declaration is seen by the header and the body
    const size_t first = find(open + 1, header_close, {";"});
    const size_t second = find(first + 1, header_close, {";"});
    if (second >= header_close) {
      fail_at_token(open, "expected 'for (init; condition; update)'");
      scopes_.pop_back();
      return close;
    }
    if (is(open + 1, "let") || is(open + 1, "var") || is(open + 1, "const")) {
      const size_t name = is(open + 1, "var") ? skip_template(open + 2) : open + 2;
      scan(name + 1, first);
      declare(text(name));
    } else {
      scan(open + 1, first);
    }
    scan(first + 1, second);
    scan(second + 1, header_close);
    if (!is(header_close + 1, "{")) {
      fail_at_token(header_close + 1, "expected the for statement's body");
      scopes_.pop_back();
      return close;
    }
    const size_t end = read_block(header_close + 1);
    scopes_.pop_back();
    return end;
  }

  size_t read_switch(size_t j, size_t close) {
    const size_t body = scan_to_body(j + 1, close);
    if (body >= close) return close;
    const size_t body_close = partner_[body];
    read_siblings(body + 1, body_close, "switch clause", [&](size_t k, bool) {
      if (!is(k, "case") && !is(k, "default")) {
        fail_at_token(k, fmt::format("expected case or default, found '{}'", text(k)));
        return body_close;
      }
      const size_t clause_body = find(k + 1, body_close, {"{"});
      if (clause_body >= body_close) {
        fail_at_token(k, "expected the clause's body");
        return body_close;
      }
      scan(k + 1, clause_body);
      return read_block(clause_body);
    });
    return body_close + 1;
  }

  // Records every name in [j, end) that no local scope declares; member names after '.' and
  // keywords are not names of declarations.
  void scan(size_t j, size_t end) {
    for (; j < end && j < tokens_.size(); ++j) {
      if (is(j, ".")) {
        if (identifier(j + 1)) ++j;
        continue;
      }
      if (is(j, "@") && identifier(j + 1)) {  // an attribute inside a type: @location(...) is scanned
        ++j;
        continue;
      }
      if (!identifier(j) || is_keyword(text(j))) continue;
      Reference reference;
      reference.begin = tokens_[j].begin;
      reference.path.emplace_back(text(j));
      size_t last = j;
      while (last + 2 < end && is(last + 1, "::") && identifier(last + 2)) {
        reference.path.emplace_back(text(last + 2));
        last += 2;
      }
      reference.end = tokens_[last].end;
      j = last;
      if (reference.path.size() == 1 && is_local(reference.path[0])) continue;
      references_.push_back(std::move(reference));
    }
  }

  std::string_view text_;
  const Features& features_;
  std::vector<Token> tokens_;
  std::vector<size_t> partner_;
  ParsedModule out_;
  // The item being read.
  std::vector<Removal> removals_;
  std::vector<Reference> references_;
  std::vector<std::string> locals_;
  std::vector<std::vector<std::string>> scopes_;
};

}  // namespace

ParsedModule parse_module(std::string_view text, const Features& features) { return Parser(text, features).run(); }

bool uses_wesl_syntax(std::string_view text) {
  const Tokens tokens = tokenize(text);
  const auto word = [&](size_t i) {
    const Token& t = tokens.tokens[i];
    return text.substr(t.begin, t.end - t.begin);
  };
  for (size_t i = 0; i < tokens.tokens.size(); ++i) {
    const std::string_view w = word(i);
    // `import` is a reserved word of WGSL: a plain WGSL file never holds it as a name.
    if (w == "import") return true;
    if (w == "@" && i + 1 < tokens.tokens.size()) {
      const std::string_view name = word(i + 1);
      if (name == "if" || name == "elif" || name == "else") return true;
    }
  }
  return false;
}

}  // namespace warden::shaders::wesl
