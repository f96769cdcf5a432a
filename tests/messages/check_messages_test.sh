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
put include/warden/core/messages.h '#define WARDEN_MESSAGES_CORE(X) \' '  X(core, Application, 0, "an application error")'
put include/warden/resources/messages.h '#define WARDEN_MESSAGES_RESOURCES(X) \' '  X(resources, HandleReleased, 0, "the handle was released")'
put include/warden/tiles/messages.h '#define WARDEN_MESSAGES_TILES(X) \' '  X(tiles, TileZeroSize, 0, "a tile of size 0")'

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
  IdStatedInAnotherLayersListFails)
    put include/warden/tiles/messages.h '#define WARDEN_MESSAGES_TILES(X) \' '  X(tiles, TileOther, 0, "another")'
    put include/warden/core/messages.h '#define WARDEN_MESSAGES_CORE(X) \' '  X(core, Application, 0, "an application error") \' \
      '  X(tiles, TileZeroSize, 1, "a tile of size 0")'
    expect 1 "tiles.TileZeroSize is not stated in its layer's list (include/warden/tiles/messages.h or src/tiles/messages.h)" \
      "1 problem(s) in 3 messages" ;;
  *) echo "unknown case $case_name" >&2; exit 2 ;;
esac
