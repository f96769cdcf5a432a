#!/usr/bin/env bash
# Proves scripts/check-messages.sh fails where it must: each case builds a small warden-shaped
# tree and a stand-in `warden` that prints its message list, runs the check and asserts its exit
# code and what it names.
#   check_messages_test.sh CHECK_SCRIPT CASE
set -euo pipefail

check="$1" case_name="$2"
source "$(dirname "$0")/../support/fixture_tree.sh"
run_check() { "$check" "$tree" "$tree/fake-warden"; }

# The stand-in CLI lists core.Application, resources.HandleReleased and tiles.TileZeroSize.
put fake-warden '#!/usr/bin/env bash' \
  'if [[ "$2" == --markdown ]]; then printf "# Messages\n\n| resources.HandleReleased | the handle was released |\n"' \
  'else printf "core.Application  an application error\nresources.HandleReleased  the handle was released\ntiles.TileZeroSize  a tile of size 0\n"; fi'
chmod +x "$tree/fake-warden"
put docs/messages.md '# Messages' '' '| resources.HandleReleased | the handle was released |'
put src/resources/registry.cpp 'return make_error(ErrorKind::StaleHandle, MessageId::HandleReleased, "released");'
put include/warden/tiles/tile.h 'inline Error zero() { return make_error(ErrorKind::InvalidArgument, MessageId::TileZeroSize, "zero"); }'

case "$case_name" in
  CurrentListPasses)
    expect 0 "3 messages, each emitted by its layer" ;;
  StalePublishedListFails)
    put docs/messages.md '# Messages' '' '| resources.HandleGone | an older word |'
    expect 1 "docs/messages.md differs" "warden messages --markdown > docs/messages.md" "-| resources.HandleGone" ;;
  MissingPublishedListFails)
    rm "$tree/docs/messages.md"
    expect 1 "docs/messages.md is missing" ;;
  IdNeverEmittedFails)
    put src/resources/registry.cpp '// nothing reports it any more'
    expect 1 "resources.HandleReleased is never emitted" "1 problem(s) in 3 messages" ;;
  IdEmittedByAnotherLayerFails)
    rm "$tree/include/warden/tiles/tile.h"
    put src/engine/engine.cpp 'make_error(ErrorKind::InvalidArgument, MessageId::TileZeroSize, "zero");'
    expect 1 "tiles.TileZeroSize is listed under tiles but emitted in src/engine/engine.cpp" ;;
  UnusedIdNeedsNoEmitter)
    # A message that went away keeps its id, marked unused in its text, and nothing emits it.
    put fake-warden '#!/usr/bin/env bash' \
      'if [[ "$2" == --markdown ]]; then printf "# Messages\n\n| resources.HandleReleased | the handle was released |\n"' \
      'else printf "core.Application  an application error\nresources.HandleReleased  the handle was released\ntiles.TileZeroSize  a tile of size 0\ntiles.TileGone  unused: a tile that went away\n"; fi'
    expect 0 "4 messages, each emitted by its layer" ;;
  *) echo "unknown case $case_name" >&2; exit 2 ;;
esac
