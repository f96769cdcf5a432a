// `warden messages`: the list of every message warden and its programs emit, by stable id
// (each layer's messages.h; core/messages.h says how ids are numbered).
// `--markdown` prints docs/messages.md as published; `--json` is for tools that filter logs.
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>
#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/messages.h"
#include "cli/output.h"
#include "warden/core/messages.h"

namespace warden::cli {
namespace {

// A table cell: a '|' in the text would end the cell.
std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string markdown() {
  std::string out =
      "# Messages\n\n"
      "Every message warden emits, by its stable id. This page is printed by `warden messages "
      "--markdown` from the lists each layer keeps beside itself (`include/warden/<layer>/messages.h`; "
      "the `warden` tool's own in `src/cli/messages.h`); a test fails when the two differ.\n\n"
      "An `Error` (every failed `Result`) and a `Diagnostic` (what `Diagnostics` keeps and hands to "
      "its sink) carry a `MessageId` beside their words. The words name the object, the values and "
      "what to do, and may be improved in any release; the id does not change meaning. Match on "
      "the id (`error.id == warden::MessageId::HandleReleased`), filter logs on its name "
      "(`warden::to_string(id)`, e.g. `resources.HandleReleased`), and read the words.\n\n"
      "`core.Application` is the id of an error an application made itself (`make_error` without "
      "an id, for instance in a tile fetcher) and handed to warden, which passes it on unchanged.\n\n"
      "An id's value is its layer's number in the high byte and its number in the layer's list in "
      "the low byte; values never change, and a message that goes away leaves its value unused. "
      "The demo, the smoke job (app) and the `warden` tool (cli) are programs built on the library: "
      "their messages are not in its installed headers.\n";
  for (std::span<const MessageInfo> list : message_lists()) {
    std::string_view layer;
    for (const MessageInfo& m : list) {
      if (m.layer != layer) {
        layer = m.layer;
        out += fmt::format("\n## {}\n\n| id | value | means |\n|---|---|---|\n", layer);
      }
      out += fmt::format("| `{}` | `{:#06x}` | {} |\n", m.name, static_cast<unsigned>(m.id), cell(m.text));
    }
  }
  return out;
}

nlohmann::json json() {
  nlohmann::json list = nlohmann::json::array();
  for (std::span<const MessageInfo> one_list : message_lists()) {
    for (const MessageInfo& m : one_list) {
      list.push_back({{"name", m.name}, {"layer", m.layer}, {"value", static_cast<int>(m.id)}, {"text", m.text}});
    }
  }
  return list;
}

}  // namespace

void add_messages_command(CLI::App& app, CommandRun& run) {
  auto* cmd = app.add_subcommand("messages", "List every message warden emits, by its stable id");
  struct Choice {
    bool json = false;
    bool markdown = false;
  };
  auto choice = std::make_shared<Choice>();
  auto* as_json = cmd->add_flag("--json", choice->json, "A JSON array: name, layer, value, text");
  auto* as_markdown = cmd->add_flag("--markdown", choice->markdown, "The page published as docs/messages.md");
  as_json->excludes(as_markdown);
  cmd->callback([&run, choice] {
    run = [choice] {
      if (choice->json) {
        write_out(json().dump(2) + "\n");
      } else if (choice->markdown) {
        write_out(markdown());
      } else {
        for (std::span<const MessageInfo> list : message_lists()) {
          for (const MessageInfo& m : list) print_out("{:<40} {}\n", m.name, m.text);
        }
      }
      return kExitOk;
    };
  });
}

}  // namespace warden::cli
