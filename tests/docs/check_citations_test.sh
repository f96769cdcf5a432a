#!/usr/bin/env bash
# Proves scripts/check-citations.sh fails where it must: each case builds a small warden-shaped
# tree in a temporary folder, runs the check on it and asserts its exit code and what it names.
#   check_citations_test.sh CHECK_SCRIPT CASE
set -euo pipefail

check="$1" case_name="$2"
source "$(dirname "$0")/../support/fixture_tree.sh"
run_check() { "$check" "$tree"; }

# A clean tree: a design page, two ADRs (one amended by the other), links that resolve, and a
# random seed, which is not a citation.
put README.md '# fixture' 'Start with [the design](docs/design.md) and [ADR 0001](docs/adr/0001-first.md#decision).' \
  '`warden soak --seed S` draws its faults from a seed; see [the site](https://example.org/x.md).'
put docs/design.md '# Design' 'The rule, with its reason ([ADR 0002](adr/0002-second.md)).' '```' '[not a link](nowhere.md)' '```'
put docs/adr/0001-first.md '# 0001 — First' '' 'Status: accepted (2026-11-30); amended by 0002 (the clock).' '' '## Decision'
put docs/adr/0002-second.md '# 0002 — Second' '' 'Status: accepted (2026-12-01).' '' 'Amends 0001.'
put src/core/pool.cpp '// Slots recycled under the submission clock (docs/design.md, "Tiles").' 'uint64_t seed = 1;  // a random seed' 'std::mt19937_64 random(seed);' 'for (uint64_t seed : {1u, 2u}) SCOPED_TRACE(seed);'
put tests/fuzz/CMakeLists.txt '# each target runs on its seed corpus'

case "$case_name" in
  CleanTreePasses)
    expect 0 "check-citations: every citation is in the tree" ;;
  DesignNotesCitationFails)
    put src/resources/registry.cpp '// fine' '// One warning listing the leaks (DESIGN invariant 7).'
    put docs/notes.md 'Measured on this build (ENVIRONMENT.md).'
    expect 1 "src/resources/registry.cpp:2: cites a design, style or environment notes file" \
      "docs/notes.md:1: cites a design, style or environment notes file" "2 finding(s)" ;;
  StyleNotesCitationFails)
    put include/warden/core/handle.h '/// generated from one list (STYLE point 8).'
    expect 1 "include/warden/core/handle.h:1: cites a design, style or environment notes file" ;;
  SeedCitationFails)
    put src/device/controller.cpp '// The seed'"'"'s retireDevice(): each step runs.'
    put include/warden/present/swapchain.h '// Swapchain (seeds'"'"' ADR-0009 decision 4).'
    put docs/device-lifecycle.md 'Through the transitions of `seeds/device-loss-recovery`.'
    put tests/tiles/tile_cache_test.cpp '// no retries (seed: none inside it)'
    expect 1 "src/device/controller.cpp:1: cites a source document" "include/warden/present/swapchain.h:1: cites a source document" \
      "docs/device-lifecycle.md:1: cites a source document" "tests/tiles/tile_cache_test.cpp:1: cites a source document" \
      "4 finding(s)" ;;
  ArticleCitationFails)
    put docs/tiles.md 'Each failure mode the source article lists.'
    expect 1 "docs/tiles.md:1: cites an article" ;;
  PathAboveTheTreeFails)
    put scripts/setup.sh '# read ../shared/notes first'
    expect 1 "scripts/setup.sh:1: points above the repository (../shared)" ;;
  BrokenMarkdownLinkFails)
    put docs/guide.md 'See [the policy](failure-policy.md) and [the design](design.md).'
    put README.md '# fixture' '[old](docs/DESIGN-notes.md)'
    expect 1 "docs/guide.md:1: the link (failure-policy.md) names 'docs/failure-policy.md', which is not in the repository" \
      "README.md:2: the link (docs/DESIGN-notes.md)" "2 finding(s)" ;;
  AdrWithoutStatusFails)
    put docs/adr/0003-third.md '# 0003 — Third' '' '## Context'
    expect 1 "docs/adr/0003-third.md:1: no status line among the first five lines" ;;
  AdrStatusInAnotherFormFails)
    put docs/adr/0003-third.md '# 0003 — Third' '' 'Status: accepted.'
    expect 1 "docs/adr/0003-third.md:3: the status line is not in the ADR form" ;;
  SupersededByAMissingAdrFails)
    put docs/adr/0003-third.md '# 0003 — Third' '' 'Status: superseded by 0042 (2026-11-30)'
    expect 1 "docs/adr/0003-third.md:3: names ADR 0042 as its successor, and docs/adr/ has no 0042-*.md" ;;
  AmendedByAMissingAdrFails)
    put docs/adr/0003-third.md '# 0003 — Third' '' 'Status: accepted (2026-11-30)' '' '(Amended by 0009: the clock.)'
    expect 1 "docs/adr/0003-third.md:5: names ADR 0009 as its successor" ;;
  NothingToCheckIsAUsageError)
    rm -rf "$tree"/* && expect 2 "nothing to check" ;;
  *)
    echo "check_citations_test: no case '$case_name'" >&2; exit 2 ;;
esac
