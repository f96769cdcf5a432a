#include "warden/core/result.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <concepts>
#include <memory>
#include <string>
#include <utility>

#include "support/error_object.h"

namespace warden {
namespace {

// A success costs a value and one pointer; the Error lives out of line. A value that can carry
// a deferred failure (ErrorSource) has a second pointer, for the Error its first read builds.
static_assert(sizeof(Result<void*>) == 3 * sizeof(void*));
static_assert(sizeof(Result<std::string>) == sizeof(std::string) + sizeof(void*));
static_assert(sizeof(Result<void>) == sizeof(void*));
static_assert(!std::is_copy_constructible_v<Result<std::unique_ptr<int>>>);
static_assert(std::is_move_constructible_v<Result<std::unique_ptr<int>>>);
static_assert(std::is_copy_constructible_v<Result<std::string>>);

// `*` reads the value in the same four forms as value(): on a temporary Result it hands out
// an rvalue, so a move-only value moves out of `*make()`.
template <typename R, typename Want>
concept StarGives = requires(R r) {
  { *static_cast<R&&>(r) } -> std::same_as<Want>;
};
using MoveOnly = Result<std::unique_ptr<int>>;
static_assert(StarGives<MoveOnly, std::unique_ptr<int>&&>);
static_assert(StarGives<const MoveOnly, const std::unique_ptr<int>&&>);
static_assert(StarGives<MoveOnly&, std::unique_ptr<int>&>);
static_assert(StarGives<const MoveOnly&, const std::unique_ptr<int>&>);
static_assert(std::is_same_v<decltype(std::declval<const MoveOnly>().value()), const std::unique_ptr<int>&&>);
static_assert(std::is_same_v<decltype(std::declval<MoveOnly>().operator->()), std::unique_ptr<int>*>);

// Counts live instances, to check that a Result builds and destroys its value exactly once.
struct Counted {
  static inline int alive = 0;
  int v = 0;
  explicit Counted(int value) : v(value) { ++alive; }
  Counted(const Counted& o) : v(o.v) { ++alive; }
  Counted(Counted&& o) noexcept : v(o.v) { ++alive; }
  Counted& operator=(const Counted&) = default;
  Counted& operator=(Counted&&) = default;
  ~Counted() { --alive; }
};

Result<int> parse_digit(char c) {
  if (c < '0' || c > '9') return make_error(ErrorKind::InvalidArgument, std::string("not a digit: ") + c);
  return c - '0';
}

TEST(Result, HoldsAValueOrAnError) {
  auto good = parse_digit('7');
  ASSERT_TRUE(good.ok());
  EXPECT_TRUE(static_cast<bool>(good));
  EXPECT_EQ(*good, 7);
  EXPECT_EQ(good.value(), 7);

  auto bad = parse_digit('x');
  ASSERT_FALSE(bad.ok());
  EXPECT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(bad.error().kind, ErrorKind::InvalidArgument);
  EXPECT_EQ(bad.error().id, MessageId::Application);  // made by the application, without an id
  EXPECT_EQ(bad.error().message, "not a digit: x");
}

TEST(Result, ArrowAndStarReachTheValue) {
  Result<std::string> r = std::string("label");
  EXPECT_EQ(r->size(), 5u);
  *r += "!";
  EXPECT_EQ(r.value(), "label!");
  const auto& c = r;
  EXPECT_EQ(*c, "label!");
  EXPECT_EQ(c->front(), 'l');
}

TEST(Result, MoveOnlyValuesMoveOut) {
  Result<std::unique_ptr<int>> r = std::make_unique<int>(5);
  ASSERT_TRUE(r.ok());
  std::unique_ptr<int> p = std::move(r).value();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(*p, 5);

  Result<std::unique_ptr<int>> moved = std::move(r);
  EXPECT_TRUE(moved.ok());  // a moved-from value stays a (moved-from) value
}

Result<std::unique_ptr<int>> make_owned(int v) { return std::make_unique<int>(v); }

TEST(Result, StarMovesAMoveOnlyValueOutOfATemporary) {
  std::unique_ptr<int> p = *make_owned(9);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(*p, 9);
  Result<std::unique_ptr<int>> r = make_owned(3);
  std::unique_ptr<int> q = *std::move(r);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(*q, 3);
  EXPECT_EQ(*r, nullptr);  // NOLINT(bugprone-use-after-move): the value was moved, the Result still holds one
}

TEST(Result, CopiesAreIndependent) {
  Result<std::string> a = make_error(ErrorKind::NotFound, "no such file");
  Result<std::string> b = a;
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error().message, "no such file");
  a = std::string("found");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(b.error().message, "no such file");  // b kept its own Error
  b = a;
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, "found");
  b = b;  // self-assignment leaves it alone
  EXPECT_EQ(*b, "found");
}

TEST(Result, AFailedResultStaysFailedAfterItsErrorMovedOut) {
  Result<int> a = make_error(ErrorKind::Io, "disk");
  Result<int> b = std::move(a);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error().message, "disk");
  ASSERT_FALSE(a.ok());  // NOLINT(bugprone-use-after-move): the moved-from state is defined
  EXPECT_EQ(a.error().kind, ErrorKind::Internal);
  EXPECT_EQ(a.error().id, MessageId::ResultMovedFrom);
  Result<int> c = a;  // copying and assigning a moved-from Result are safe too
  EXPECT_FALSE(c.ok());
  c = std::move(a);
  EXPECT_FALSE(c.ok());
  c = 3;
  EXPECT_EQ(*c, 3);
}

TEST(Result, AssignmentSwitchesBetweenValueAndError) {
  Result<std::string> r = std::string("v");
  r = make_error(ErrorKind::Timeout, "late");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Timeout);
  r = std::string("back");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, "back");
  Result<std::string> e = make_error(ErrorKind::Refused, "no");
  r = std::move(e);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "no");
}

TEST(Result, ValueIsBuiltAndDestroyedExactlyOnce) {
  ASSERT_EQ(Counted::alive, 0);
  {
    Result<Counted> r = Counted(1);
    EXPECT_EQ(Counted::alive, 1);
    Result<Counted> copy = r;
    EXPECT_EQ(Counted::alive, 2);
    Result<Counted> moved = std::move(copy);
    EXPECT_EQ(Counted::alive, 3);  // the moved-from value is still an object
    copy = make_error(ErrorKind::Internal, "gone");
    EXPECT_EQ(Counted::alive, 2);
    Result<Counted> failed = make_error(ErrorKind::Internal, "never built");
    EXPECT_EQ(Counted::alive, 2);
    failed = r;
    EXPECT_EQ(Counted::alive, 3);
    EXPECT_EQ(failed->v, 1);
  }
  EXPECT_EQ(Counted::alive, 0);
}

// The facts of the object an error is about are fields, which the matchers read; an error
// about no object names none, and copies keep them.
TEST(Result, AnErrorAboutAnObjectCarriesItsKindHandleAndLabel) {
  using testing::NamesHandle;
  using testing::NamesIndex;
  using testing::NamesKind;
  using testing::NamesLabel;
  Result<int> failed = make_error(ErrorKind::StaleHandle, MessageId::HandleDestroyed,
                                  ErrorObject{"buffer", 3, 7, "vertices"}, "stale buffer handle: destroyed");
  ASSERT_TRUE(failed.error().object.has_value());
  EXPECT_THAT(failed, NamesKind("buffer"));
  EXPECT_THAT(failed, NamesHandle(3, 7));
  EXPECT_THAT(failed, NamesIndex(3));
  EXPECT_THAT(failed, NamesLabel("vertices"));
  EXPECT_THAT(failed, ::testing::Not(NamesLabel("indices")));
  EXPECT_THAT(failed, ::testing::Not(NamesHandle(3, 8)));
  const Result<int> copy = failed;
  EXPECT_THAT(copy, NamesLabel("vertices"));

  ::testing::StringMatchResultListener listener;
  EXPECT_FALSE(::testing::ExplainMatchResult(NamesLabel("indices"), failed, &listener));
  EXPECT_EQ(listener.str(), "which names buffer labelled \"vertices\" (index 3, generation 7)");
  const Result<int> about_nothing = make_error(ErrorKind::NotFound, MessageId::Application, "no such tile");
  EXPECT_FALSE(about_nothing.error().object.has_value());
  ::testing::StringMatchResultListener nothing;
  EXPECT_FALSE(::testing::ExplainMatchResult(NamesKind("buffer"), about_nothing, &nothing));
  EXPECT_EQ(nothing.str(), "which names no object: no such tile");
}

TEST(Result, VoidResultIsOkOrAnError) {
  Result<void> fine;
  EXPECT_TRUE(fine.ok());
  Result<void> bad = make_error(ErrorKind::Validation, "rejected");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "rejected");

  Result<void> copy = bad;
  fine = copy;
  ASSERT_FALSE(fine.ok());
  EXPECT_EQ(fine.error().message, "rejected");
  Result<void> moved = std::move(bad);
  EXPECT_EQ(moved.error().message, "rejected");
  EXPECT_FALSE(bad.ok());  // NOLINT(bugprone-use-after-move)
  fine = Result<void>{};
  EXPECT_TRUE(fine.ok());
  copy = std::move(fine);
  EXPECT_TRUE(copy.ok());
}

// Reading what a Result does not hold stops the program with words, in every build type (the
// gtest binaries are built with NDEBUG by `make test`, without it by `make test-sanitize`).
TEST(ResultDeathTest, TheValueOfAFailureStopsTheProgramWithTheErrorsKindIdAndMessage) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const Result<std::string> bad = make_error(ErrorKind::PoolFull, "no free buffer slot for \"tiles\"");
  const char* words =
      "warden: the value of a failed Result was read: pool full \\(core\\.Application\\): no free buffer slot "
      "for \"tiles\"";
  EXPECT_DEATH((void)bad.value(), words);
  EXPECT_DEATH((void)*bad, words);
  EXPECT_DEATH((void)bad->size(), words);
  EXPECT_DEATH((void)Result<std::string>(bad).value(), words);  // the rvalue form
  Result<std::string> moved_from = bad;
  Result<std::string> taker = std::move(moved_from);
  ASSERT_FALSE(taker.ok());
  EXPECT_DEATH((void)*moved_from, "internal error \\(core\\.ResultMovedFrom\\)");  // NOLINT(bugprone-use-after-move)
}

TEST(ResultDeathTest, TheErrorOfASuccessStopsTheProgramWithWords) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const Result<int> good = 3;
  EXPECT_DEATH((void)good.error(), "warden: the error of a successful Result was read: it holds no error");
  const Result<void> done;
  EXPECT_DEATH((void)done.error(), "warden: the error of a successful Result was read");
}

}  // namespace
}  // namespace warden

namespace warden {
namespace {

// A deferred failure (ErrorSource) writes its words on first read, once, and travels through
// copies and moves like any failure.
int g_builds = 0;
Error build_counted(const ErrorSource& source, uint64_t payload) {
  ++g_builds;
  return Error{ErrorKind::StaleHandle, MessageId::Application,
               "source " + std::to_string(source.context) + " payload " + std::to_string(payload), std::nullopt};
}
constexpr ErrorSource kCountedSource{&build_counted, 7, 0};

TEST(Result, ADeferredFailureIsBuiltOnFirstReadOnceAndSurvivesCopiesAndMoves) {
  g_builds = 0;
  Result<const int*> failed(kCountedSource, 42);
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ(g_builds, 0);  // nothing was built to fail
  Result<const int*> copy = failed;
  EXPECT_EQ(copy.error().message, "source 7 payload 42");
  EXPECT_EQ(g_builds, 1);
  EXPECT_EQ(copy.error().message, "source 7 payload 42");
  EXPECT_EQ(g_builds, 1);  // kept
  Result<const int*> moved = std::move(failed);
  EXPECT_EQ(moved.error().message, "source 7 payload 42");
  EXPECT_EQ(g_builds, 2);  // the copy was made before either was read: each builds its own
  EXPECT_EQ(failed.error().id, MessageId::ResultMovedFrom);  // NOLINT(bugprone-use-after-move): what a moved-from failure says
  Result<const int*> assigned = static_cast<const int*>(nullptr);
  assigned = std::move(copy);
  EXPECT_EQ(assigned.error().message, "source 7 payload 42");
}

}  // namespace
}  // namespace warden
