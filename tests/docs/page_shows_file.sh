#!/usr/bin/env bash
# Checks that a Markdown page shows a source file verbatim: the fenced block right after the
# line `<!-- file: NAME -->` (NAME: the file's name) must equal the file, so the page cannot
# drift from the program the tests build and run.
#   page_shows_file.sh <page.md> <file>
set -euo pipefail
page=$1 file=$2 name=$(basename "$2")
grep -q "^<!-- file: $name -->\$" "$page" || { echo "page_shows_file: $page has no '<!-- file: $name -->' line" >&2; exit 1; }
shown=$(awk -v marker="<!-- file: $name -->" '
  $0 == marker { found = 1; next }
  found && !open && /^```/ { open = 1; next }
  open && /^```$/ { exit }
  open { print }' "$page")
if ! diff <(printf '%s\n' "$shown") "$file" > /dev/null; then
  echo "page_shows_file: the block after '<!-- file: $name -->' in $page differs from $file:" >&2
  diff <(printf '%s\n' "$shown") "$file" >&2 || true
  exit 1
fi
echo "page_shows_file: $page shows $file verbatim"
