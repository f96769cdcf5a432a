// The message list itself: every id named once, described, and found again from its value.
#include <gmock/gmock.h>

#include <set>
#include <string>

#include "support/messages.h"
#include "warden/core/diagnostics.h"
#include "warden/core/messages.h"
#include "warden/core/result.h"

namespace warden {
namespace {

using testing::FailsWith;

TEST(Messages, EveryIdHasOneUniqueNameItsLayerAndAText) {
  const std::set<std::string> layers = {"core",  "gpu",   "device",    "resources", "shaders", "pipelines", "present",
                                        "tiles", "debugdraw", "engine", "demo",      "app",     "cli"};
  std::set<std::string_view> names;
  size_t index = 0;
  for (const MessageInfo& m : all_messages()) {
    EXPECT_EQ(static_cast<size_t>(m.id), index++) << m.name;
    EXPECT_TRUE(layers.count(std::string(m.layer))) << m.name << " names no layer of warden";
    EXPECT_EQ(std::string(m.name), std::string(m.layer) + "." + std::string(m.name.substr(m.layer.size() + 1)));
    EXPECT_TRUE(names.insert(m.name).second) << m.name << " twice";
    EXPECT_FALSE(m.text.empty()) << m.name << " has no text";
    EXPECT_EQ(&describe(m.id), &m);
    EXPECT_EQ(to_string(m.id), m.name);
  }
  EXPECT_GT(names.size(), 1u);
}

TEST(Messages, AValueOutsideTheListIsNamedUnknownNotACrash) {
  const auto beyond = static_cast<MessageId>(all_messages().size() + 7);
  EXPECT_EQ(to_string(beyond), "unknown");
  EXPECT_EQ(describe(beyond).id, beyond);
  EXPECT_FALSE(describe(beyond).text.empty());
}

TEST(Messages, AnApplicationsErrorCarriesTheApplicationId) {
  Result<int> failed = make_error(ErrorKind::NotFound, "tile 3/1/2 is not on the server");
  EXPECT_THAT(failed, FailsWith(MessageId::Application));
  EXPECT_EQ(to_string(MessageId::Application), "core.Application");
}

TEST(Messages, AMovedFromFailureSaysSoByItsId) {
  Result<int> failed = make_error(ErrorKind::NotFound, "gone");
  Result<int> taken = std::move(failed);
  EXPECT_THAT(taken, FailsWith(MessageId::Application));
  EXPECT_THAT(failed, FailsWith(MessageId::ResultMovedFrom));  // NOLINT(bugprone-use-after-move): the point
}

TEST(Messages, TheMatcherNamesWhatItGotWhenTheIdDiffers) {
  Result<int> failed = make_error(ErrorKind::NotFound, MessageId::ResultMovedFrom, "words");
  ::testing::StringMatchResultListener listener;
  EXPECT_FALSE(::testing::ExplainMatchResult(FailsWith(MessageId::Application), failed, &listener));
  EXPECT_EQ(listener.str(), "which is core.ResultMovedFrom (not found): words");
  Result<int> fine = 3;
  EXPECT_FALSE(::testing::ExplainMatchResult(FailsWith(MessageId::Application), fine, &listener));
}

TEST(Messages, DiagnosticsCountByIdAndKeepTheIdForTheSink) {
  Diagnostics diagnostics;
  std::vector<MessageId> seen;
  diagnostics.set_sink([&](const Diagnostic& d) { seen.push_back(d.id); });
  diagnostics.warning("gfx.test", MessageId::ResultMovedFrom, "one");
  diagnostics.error("gfx.test", MessageId::Application, "two");
  diagnostics.info("gfx.test", MessageId::ResultMovedFrom, "three");
  EXPECT_EQ(diagnostics.count(MessageId::ResultMovedFrom), 2u);
  EXPECT_EQ(diagnostics.count(MessageId::Application), 1u);
  EXPECT_EQ(seen, (std::vector<MessageId>{MessageId::ResultMovedFrom, MessageId::Application, MessageId::ResultMovedFrom}));
  EXPECT_EQ(diagnostics.entries().at(1).id, MessageId::Application);
}

}  // namespace
}  // namespace warden
