// A header with public symbols that lack a /// comment, documented ones beside them:
// tests/docs/undocumented_fails.sh runs the API reference check on it and expects it to fail,
// naming exactly the undocumented ones.
#pragma once

/// A namespace documented like warden's, so that its members are checked.
namespace fixture {

/// A documented struct.
struct Documented {
  /// A documented member function.
  int documented_member() const;
  int undocumented_member() const;
  int undocumented_field = 0;
};

/// A documented free function.
int documented_function();
int undocumented_function();

struct UndocumentedType {
  int value = 0;
};

}  // namespace fixture
