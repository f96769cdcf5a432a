#!/usr/bin/env bash
# Proves scripts/check-layers.sh fails where it must: each case builds a small warden-shaped tree
# in a temporary folder, runs the check on it and asserts its exit code and what it names.
#   check_layers_test.sh CHECK_SCRIPT CASE
set -euo pipefail

check="$1" case_name="$2"
source "$(dirname "$0")/../support/fixture_tree.sh"
run_check() { "$check" "$tree"; }

put CMakeLists.txt 'set(WARDEN_LAYERS core gpu resources)'
put include/warden/core/result.h '#pragma once' 'namespace warden {' '}  // namespace warden'
put include/warden/gpu/procs.h '#pragma once' '#include "warden/core/result.h"' 'namespace warden::gpu {' '}  // namespace warden::gpu'
put include/warden/resources/registry.h '#pragma once' '#include <vector>' '#include "warden/gpu/procs.h"' \
  'namespace warden::resources {' '}  // namespace warden::resources'
put src/resources/requests.h '#pragma once' 'namespace warden::resources {' '}  // namespace warden::resources'
put src/resources/registry.cpp '#include "warden/resources/registry.h"' '#include "resources/requests.h"' \
  'namespace warden::resources {' 'namespace {' '}  // namespace' '}  // namespace warden::resources'
put README.md '# fixture' '## The layers' '' '```' 'cli        the binary' 'resources' 'gpu   (webgpu.h)' 'core' '```' '' '```' 'not a drawing' '```'
# tests/ may include anything, in any namespace.
put tests/core/result_test.cpp '#include "warden/resources/registry.h"' 'namespace warden {' '}'

case "$case_name" in
  DownwardIncludesPass)
    expect 0 "check-layers: 5 files" "core < gpu < resources < cli" ;;
  UpwardIncludeInAHeaderFails)
    put include/warden/core/clock.h '#pragma once' '' '#include "warden/gpu/procs.h"' 'namespace warden {' '}'
    expect 1 "include/warden/core/clock.h:3: layer core includes warden/gpu/procs.h of layer gpu, which is above it" \
      "check-layers: 1 violation(s)" ;;
  UpwardAngleIncludeFails)
    put src/core/clock.cpp '#include <warden/resources/registry.h>' 'namespace warden {' '}'
    expect 1 "src/core/clock.cpp:1: layer core includes warden/resources/registry.h of layer resources" ;;
  UpwardPrivateIncludeInSrcFails)
    put src/gpu/context.cpp '#include "warden/gpu/procs.h"' '#include "resources/requests.h"' 'namespace warden::gpu {' '}'
    expect 1 "src/gpu/context.cpp:2: layer gpu includes resources/requests.h of layer resources" ;;
  FolderNotInTheLayerListFails)
    put src/extras/thing.cpp '#include "warden/core/result.h"'
    expect 1 'src/extras/thing.cpp: folder "extras" is not a layer: add it to WARDEN_LAYERS' ;;
  NamespaceOtherThanTheFoldersFails)
    put include/warden/resources/descriptions.h '#pragma once' 'namespace warden {' '}  // namespace warden'
    put include/warden/core/pool.h '#pragma once' 'namespace warden::core {' '}'
    expect 1 "include/warden/resources/descriptions.h:2: namespace warden in layer folder resources/; its files are namespace warden::resources" \
      "include/warden/core/pool.h:2: namespace warden::core in layer folder core/; its files are namespace warden" \
      "check-layers: 2 violation(s)" ;;
  OrderComesFromCMakeLists)
    # The same include is upward or downward depending on the list alone (here over two lines).
    put include/warden/core/clock.h '#pragma once' '#include "warden/gpu/procs.h"' 'namespace warden {' '}'
    put CMakeLists.txt 'set(WARDEN_LAYERS gpu' '    core resources)  # bottom first'
    put README.md '## The layers' '```' 'cli' 'resources' 'core' 'gpu' '```'
    expect 1 "include/warden/gpu/procs.h:2: layer gpu includes warden/core/result.h of layer core" \
      "gpu < core < resources < cli" "check-layers: 1 violation(s)" ;;
  ReadmeDrawingInAnotherOrderFails)
    put README.md '## The layers' '```' 'cli' 'gpu' 'resources' 'core' '```'
    expect 1 'README.md: the drawing under "## The layers" reads, bottom first, "core resources gpu cli"; WARDEN_LAYERS in CMakeLists.txt (and cli on top) reads "core gpu resources cli"' ;;
  CoreGathersTheLayersMessageListsOnly)
    # core/messages.h may include a library layer's message list, which holds nothing but its list.
    put CMakeLists.txt 'set(WARDEN_LAYERS core gpu resources demo)' 'set(WARDEN_PROGRAM_LAYERS demo)'
    put README.md '## The layers' '```' 'cli' 'demo' 'resources' 'gpu' 'core' '```'
    put include/warden/gpu/messages.h '/// the list' '#pragma once' '#define WARDEN_MESSAGES_GPU(X) \' '  X(gpu, DawnLog, 0, "a line")'
    put include/warden/resources/messages.h '#pragma once' '#include <vector>' '#define WARDEN_MESSAGES_RESOURCES(X) \' \
      '  X(resources, HandleNull, 0, "null") \' 'namespace warden::resources { struct Pool; }'
    put include/warden/demo/messages.h '#pragma once' 'namespace warden::demo {' '}'
    put include/warden/core/messages.h '#pragma once' '#include "warden/gpu/messages.h"' '#include "warden/resources/messages.h"' \
      '#include "warden/demo/messages.h"' 'namespace warden {' '}'
    expect 1 "include/warden/resources/messages.h:2: a message list holds only its X-macro list and comments" \
      "include/warden/resources/messages.h:5: a message list holds only its X-macro list and comments" \
      "include/warden/core/messages.h:4: layer core includes warden/demo/messages.h of layer demo" \
      "check-layers: 3 violation(s)" ;;
  NoLayerListIsAUsageError)
    put CMakeLists.txt 'project(warden)'
    expect 2 "has no set(WARDEN_LAYERS ...)" ;;
  *) echo "unknown case '$case_name'" >&2; exit 2 ;;
esac
