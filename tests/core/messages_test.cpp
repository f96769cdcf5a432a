// The message list itself: every id named once, described, and found again from its value.
#include <gmock/gmock.h>

#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "cli/messages.h"
#include "support/messages.h"
#include "support/test_files.h"
#include "warden/core/diagnostics.h"
#include "warden/core/messages.h"
#include "warden/core/result.h"
#include "warden/device/controller.h"
#include "warden/engine/engine.h"
#include "warden/pipelines/pipeline_library.h"
#include "warden/shaders/shader_manager.h"
#include "warden/tiles/tile_cache.h"

namespace warden {
namespace {

using testing::FailsWith;

TEST(Messages, EveryIdHasOneUniqueNameItsLayerAndAText) {
  std::set<std::string_view> names;
  std::set<MessageId> values;
  for (std::span<const MessageInfo> list : cli::message_lists()) {
    for (const MessageInfo& m : list) {
      EXPECT_EQ(m.layer, to_string(layer_of(m.id))) << m.name << " is listed under a layer its value does not name";
      EXPECT_EQ(std::string(m.name), std::string(m.layer) + "." + std::string(m.name.substr(m.layer.size() + 1)));
      EXPECT_TRUE(names.insert(m.name).second) << m.name << " twice";
      EXPECT_TRUE(values.insert(m.id).second) << m.name << " shares its value with another id";
      EXPECT_FALSE(m.text.empty()) << m.name << " has no text";
      EXPECT_EQ(&cli::describe_any(m.id), &m);
    }
  }
  EXPECT_GT(names.size(), all_messages().size()) << "the programs' lists are missing";
  for (const MessageInfo& m : all_messages()) {
    EXPECT_EQ(&describe(m.id), &m);
    EXPECT_EQ(to_string(m.id), m.name);
  }
}

// The values are the contract logs and peers keep: tests/data/message_values.txt records each,
// so an id renumbered (one inserted in the middle of a list, say) fails here by name.
TEST(Messages, EveryIdKeepsItsRecordedValue) {
  std::ifstream file(warden::testing::test_data("message_values.txt"));
  ASSERT_TRUE(file) << "tests/data/message_values.txt is missing";
  std::map<std::string, unsigned> recorded;
  std::map<unsigned, std::string> recorded_names;
  std::string line;
  while (std::getline(file, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string name;
    unsigned value = 0;
    ASSERT_TRUE(words >> name >> std::hex >> value) << "not \"<layer>.<Id> 0xVALUE\": " << line;
    EXPECT_TRUE(recorded.emplace(name, value).second) << name << " is recorded twice";
    const auto [holder, fresh] = recorded_names.emplace(value, name);
    EXPECT_TRUE(fresh) << name << " and " << holder->second << " are recorded with one value";
  }
  for (std::span<const MessageInfo> list : cli::message_lists()) {
    for (const MessageInfo& m : list) {
      const auto found = recorded.find(std::string(m.name));
      if (found == recorded.end()) {
        ADD_FAILURE() << m.name << " has no line in tests/data/message_values.txt; add \"" << m.name << " 0x"
                      << std::hex << std::setw(4) << std::setfill('0') << static_cast<unsigned>(m.id) << "\"";
        continue;
      }
      EXPECT_EQ(static_cast<unsigned>(m.id), found->second)
          << m.name << " was renumbered: its value is recorded, and never changes";
    }
  }
}

TEST(Messages, AValueOutsideTheListIsNamedUnknownNotACrash) {
  const auto beyond = static_cast<MessageId>(message_value(MessageLayer::engine, 0xfe));
  EXPECT_EQ(to_string(beyond), "unknown");
  EXPECT_EQ(describe(beyond).id, beyond);
  EXPECT_FALSE(describe(beyond).text.empty());
  // The library does not list the programs' messages; the tool does.
  EXPECT_EQ(to_string(demo::MessageId::DemoFramesZero), "unknown");
  EXPECT_EQ(cli::describe_any(demo::MessageId::DemoFramesZero).name, "demo.DemoFramesZero");
}

TEST(Messages, TheCategoryIsTheLayerOfTheId) {
  for (std::span<const MessageInfo> list : cli::message_lists()) {
    for (const MessageInfo& m : list) {
      const bool program = m.layer == "demo" || m.layer == "app" || m.layer == "cli";
      EXPECT_EQ(category_of(m.id), program ? std::string(m.layer) : "gfx." + std::string(m.layer)) << m.name;
    }
  }
  // The layers' named categories, which filters use, are the ones derived.
  EXPECT_EQ(category_of(MessageId::DeviceLost), device::kDiagnosticsCategory);
  EXPECT_EQ(category_of(MessageId::HandleDestroyed), category::kResources);
  EXPECT_EQ(category_of(MessageId::ShaderCompileFailed), shaders::kDiagnosticsCategory);
  EXPECT_EQ(category_of(MessageId::PipelineBuildRejected), pipelines::kDiagnosticsCategory);
  EXPECT_EQ(category_of(MessageId::TileArrayDestroyed), tiles::kDiagnosticsCategory);
  EXPECT_EQ(category_of(MessageId::EngineHang), engine::kDiagnosticsCategory);

  Diagnostics diagnostics;
  diagnostics.error(MessageId::EngineUncapturedError, "uncaptured");
  diagnostics.info(MessageId::HotReloadApplied, "applied");
  EXPECT_EQ(diagnostics.entries().at(0).category, "gfx.engine");
  EXPECT_EQ(diagnostics.entries().at(1).category, "gfx.pipelines");
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
  diagnostics.warning(MessageId::ResultMovedFrom, "one");
  diagnostics.error(MessageId::Application, "two");
  diagnostics.info(MessageId::ResultMovedFrom, "three");
  EXPECT_EQ(diagnostics.count(MessageId::ResultMovedFrom), 2u);
  EXPECT_EQ(diagnostics.count(MessageId::Application), 1u);
  EXPECT_EQ(seen, (std::vector<MessageId>{MessageId::ResultMovedFrom, MessageId::Application, MessageId::ResultMovedFrom}));
  EXPECT_EQ(diagnostics.entries().at(1).id, MessageId::Application);
}

}  // namespace
}  // namespace warden
