#include "warden/core/diagnostics.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace warden {
namespace {

TEST(Diagnostics, KeepsStructuredEntriesTheApplicationCanRead) {
  Diagnostics d;
  d.warning(MessageId::ResourcesLeakedAtShutdown, "leak");
  d.info(MessageId::ShaderCompilerMessage, "compiled");
  auto entries = d.entries();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].severity, Severity::Warning);
  EXPECT_EQ(entries[0].category, "gfx.resources");
  EXPECT_EQ(entries[0].id, MessageId::ResourcesLeakedAtShutdown);
  EXPECT_EQ(entries[0].message, "leak");
  EXPECT_EQ(entries[1].id, MessageId::ShaderCompilerMessage);
  EXPECT_EQ(d.count(MessageId::ResourcesLeakedAtShutdown), 1u);
  EXPECT_EQ(d.count(MessageId::SlotExhausted), 0u);
  EXPECT_EQ(d.count("gfx.resources"), 1u);
  EXPECT_EQ(d.count("gfx.shaders", Severity::Warning), 0u);
  EXPECT_EQ(d.take().size(), 2u);
  EXPECT_TRUE(d.entries().empty());
}

TEST(Diagnostics, BoundedStoreDropsTheOldestAndCountsThem) {
  Diagnostics d(2);
  d.info(MessageId::Application, "1");
  d.info(MessageId::Application, "2");
  d.info(MessageId::Application, "3");
  auto entries = d.entries();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].message, "2");
  EXPECT_EQ(d.dropped(), 1u);
}

TEST(Diagnostics, BoundedStoreKeepsTheNewestInOrderAfterWrappingAround) {
  Diagnostics d(3);
  for (int i = 1; i <= 8; ++i) d.info(i % 2 == 0 ? MessageId::SlotExhausted : MessageId::Application, std::to_string(i));
  auto messages = [](const std::vector<Diagnostic>& entries) {
    std::vector<std::string> out;
    for (const Diagnostic& e : entries) out.push_back(e.message);
    return out;
  };
  EXPECT_EQ(messages(d.entries()), (std::vector<std::string>{"6", "7", "8"}));
  EXPECT_EQ(d.dropped(), 5u);
  EXPECT_EQ(d.count(MessageId::SlotExhausted), 2u);  // 6 and 8
  EXPECT_EQ(messages(d.take()), (std::vector<std::string>{"6", "7", "8"}));
  EXPECT_TRUE(d.entries().empty());
  // Emptied, the store fills from the start again and wraps as before.
  for (int i = 9; i <= 12; ++i) d.info(MessageId::Application, std::to_string(i));
  EXPECT_EQ(messages(d.entries()), (std::vector<std::string>{"10", "11", "12"}));
  EXPECT_EQ(d.dropped(), 6u);
}

TEST(Diagnostics, SinkSeesEveryEntryAndMayReportAgain) {
  Diagnostics d;
  std::vector<std::string> seen;
  d.set_sink([&](const Diagnostic& e) {
    seen.push_back(e.message);
    if (e.message == "first") d.info(MessageId::Application, "from sink");
  });
  d.error(MessageId::Application, "first");
  EXPECT_EQ(seen, (std::vector<std::string>{"first", "from sink"}));
  EXPECT_EQ(d.entries().size(), 2u);
}

}  // namespace
}  // namespace warden
