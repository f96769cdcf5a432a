#!/usr/bin/env bash
# The citation check: warden's sources and docs cite only what is in the repository. Run by
# `make test` (ctest Docs.NoCitationOutsideTheTree, and Docs.Citations* on fixture trees), or:
#
#   scripts/check-citations.sh [WARDEN_ROOT]   # exit 0: clean; 1: findings, each file:line; 2: usage
#
# What is checked, over src/ include/ docs/ tests/ bench/ scripts/ examples/ cmake/ .ci/ README.md
# CHANGELOG.md CMakeLists.txt Makefile (text files only):
#  - no citation of a document that is not in the tree: a design, style or environment notes
#    file (DESIGN.md, STYLE.md, ENVIRONMENT.md, "DESIGN invariant N", "STYLE point N"), source
#    documents the project was started from ("the seed", "seeds' ADR-...", "seed ADR", "seeds/",
#    "the source article"), or a path above the repository ("../shared"). A rule the code needs
#    from such a document is written in docs/design.md or an ADR, and cited there. A random seed
#    ("--seed", "a seed", "seed corpus") is not a citation and passes;
#  - every relative markdown link [text](path) in README.md, CHANGELOG.md and docs/**/*.md names
#    a file or folder that exists (an #anchor is not checked; http(s):, mailto: are left alone);
#  - every ADR (docs/adr/NNNN-*.md) has a status line among its first five lines, in the one form
#      Status: accepted (YYYY-MM-DD)[; amended by NNNN (what)]...
#      Status: superseded by NNNN (YYYY-MM-DD)
#    and every "superseded by NNNN" or "amended by NNNN" in an ADR names an ADR that exists.
# This file and its test (tests/docs/check_citations_test.sh) spell the patterns, so they are
# not scanned.
set -euo pipefail

root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
[[ -d "$root" ]] || { echo "check-citations: no folder '$root'" >&2; exit 2; }
cd "$root"

scanned=()
for place in src include docs tests bench scripts examples cmake .ci README.md CHANGELOG.md CMakeLists.txt Makefile; do
  [[ -e "$place" ]] && scanned+=("$place")
done
(( ${#scanned[@]} )) || { echo "check-citations: nothing to check in '$root' (no src/, docs/, README.md, ...)" >&2; exit 2; }

findings=0
finding() { echo "$1"; findings=$((findings + 1)); }

# ---- citations of documents outside the tree ------------------------------------------------
# One extended regex per kind of citation; each line found is reported with the kind's words.
# Each entry: grep flags, an extended regex, and the words of the finding ('::' between them).
citations=(
  '-E::DESIGN\.md|STYLE\.md|ENVIRONMENT\.md|\b(DESIGN|STYLE) (invariant|point)\b::cites a design, style or environment notes file that is not in the repository'
  "-Ei::\\bthe seeds?\\b|\\bseeds'|\\bseed's ADR|\\bseed ADR|\\(seeds?:|\\bseeds/::cites a source document that is not in the repository"
  "-Ei::\\b(source|Russian|the) article\\b|\\barticle's\\b::cites an article that is not in the repository"
  '-E::\.\./shared\b::points above the repository (../shared)'
)
for entry in "${citations[@]}"; do
  flags=${entry%%::*} rest=${entry#*::}
  pattern=${rest%%::*} words=${rest#*::}
  # -I skips binary files; the check and its test spell the patterns, so they are left out.
  while IFS= read -r hit; do
    [[ -n "$hit" ]] || continue
    file=${hit%%:*} rest=${hit#*:}
    line=${rest%%:*} text=${rest#*:}
    text=$(sed -E 's/^[[:space:]]+//' <<< "$text" | cut -c1-120)
    finding "$file:$line: $words: $text"
  done < <(grep -rnI "$flags" --exclude=check-citations.sh --exclude=check_citations_test.sh --exclude-dir=.git \
             -- "$pattern" "${scanned[@]}" | sort -t: -k1,1 -k2,2n || true)
done

# ---- relative markdown links ----------------------------------------------------------------
pages=()
for page in README.md CHANGELOG.md; do [[ -f "$page" ]] && pages+=("$page"); done
if [[ -d docs ]]; then mapfile -t -O "${#pages[@]}" pages < <(find docs -type f -name '*.md' | sort); fi
for page in "${pages[@]}"; do
  dir=$(dirname "$page")
  # [text](target) outside code spans; one link per output line: LINE<TAB>TARGET.
  while IFS=$'\t' read -r line target; do
    [[ -n "$target" ]] || continue
    case "$target" in
      http://*|https://*|mailto:*|\#*) continue ;;
    esac
    path=${target%%#*}
    path=${path%% *}                             # [text](path "title")
    [[ -n "$path" ]] || continue
    if [[ "$path" == /* ]]; then resolved=".$path"; else resolved="$dir/$path"; fi
    [[ -e "$resolved" ]] ||
      finding "$page:$line: the link ($target) names '$resolved', which is not in the repository"
  done < <(awk '
    /^[[:space:]]*```/ { fenced = !fenced; next }
    fenced { next }
    {
      text = $0
      gsub(/`[^`]*`/, "", text)                  # code spans are not links
      while (match(text, /\[[^]]*\]\([^)]*\)/)) {
        link = substr(text, RSTART, RLENGTH)
        sub(/^\[[^]]*\]\(/, "", link); sub(/\)$/, "", link)
        printf "%d\t%s\n", NR, link
        text = substr(text, RSTART + RLENGTH)
      }
    }' "$page")
done

# ---- ADR status lines -----------------------------------------------------------------------
if [[ -d docs/adr ]]; then
  status_form='^Status: (accepted|superseded by [0-9]{4}) \([0-9]{4}-[0-9]{2}-[0-9]{2}\)(; (amended|superseded in part) by [0-9]{4}( \([^)]*\))?)*\.?$'
  while IFS= read -r adr; do
    if ! head -n 5 "$adr" | grep -qE "$status_form"; then
      seen=$(head -n 5 "$adr" | grep -nE '^Status' | head -n 1 || true)
      if [[ -n "$seen" ]]; then
        finding "$adr:${seen%%:*}: the status line is not in the ADR form 'Status: accepted (YYYY-MM-DD)[; amended by NNNN (what)]' or 'Status: superseded by NNNN (YYYY-MM-DD)': ${seen#*:}"
      else
        finding "$adr:1: no status line among the first five lines (Status: accepted (YYYY-MM-DD), or superseded by NNNN)"
      fi
    fi
    while IFS= read -r hit; do
      [[ -n "$hit" ]] || continue
      line=${hit%%:*}
      for number in $(grep -oEi '(superseded|amended)( in part)? by (ADR )?[0-9]{4}' <<< "${hit#*:}" | grep -oE '[0-9]{4}'); do
        compgen -G "docs/adr/$number-*.md" > /dev/null ||
          finding "$adr:$line: names ADR $number as its successor, and docs/adr/ has no $number-*.md"
      done
    done < <(grep -nEi '(superseded|amended)( in part)? by (ADR )?[0-9]{4}' "$adr" || true)
  done < <(find docs/adr -maxdepth 1 -type f -name '[0-9][0-9][0-9][0-9]-*.md' | sort)
fi

if (( findings )); then
  echo "check-citations: $findings finding(s). Cite docs/design.md or an ADR instead, or state the rule itself (docs/design.md says where each rule comes from)." >&2
  exit 1
fi
echo "check-citations: every citation is in the tree, every link resolves, every ADR has its status"
