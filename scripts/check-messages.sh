#!/usr/bin/env bash
# The message-list check (include/warden/core/messages.h). Run by `make test` (ctest Messages.*):
#
#   scripts/check-messages.sh WARDEN_ROOT WARDEN_CLI    # exit 0: clean; 1: problems, each named; 2: usage
#
#  - docs/messages.md is exactly what `warden messages --markdown` prints, so the published list
#    is the compiled one;
#  - every id but core.Application is emitted somewhere: `MessageId::<Id>` appears in the files
#    of its own layer (src/<layer>/, include/warden/<layer>/), so the list holds no dead ids and
#    each entry's layer is the one that says it. An id whose message went away stays in the list
#    (ids are never given to another message) with a text starting "unused:", and is not looked for.
set -euo pipefail

root="${1:-}" cli="${2:-}"
[[ -d "$root" && -x "$cli" ]] || { echo "usage: check-messages.sh WARDEN_ROOT WARDEN_CLI" >&2; exit 2; }
problems=0

published="$root/docs/messages.md"
if [[ ! -f "$published" ]]; then
  echo "check-messages: docs/messages.md is missing; write it with: warden messages --markdown > docs/messages.md"
  problems=$((problems + 1))
elif ! diff_out=$(diff -u "$published" <("$cli" messages --markdown) --label docs/messages.md --label 'warden messages --markdown'); then
  echo "check-messages: docs/messages.md differs from the list in core/messages.h; write it again with: warden messages --markdown > docs/messages.md"
  printf '%s\n' "$diff_out" | head -40
  problems=$((problems + 1))
fi

count=0
while read -r name first_word _; do
  layer="${name%%.*}" id="${name#*.}"
  [[ "$name" == *.* && -n "$id" ]] || continue
  count=$((count + 1))
  [[ "$layer.$id" == core.Application || "$first_word" == unused: ]] && continue
  folders=()
  for d in "$root/src/$layer" "$root/include/warden/$layer"; do [[ -d "$d" ]] && folders+=("$d"); done
  if [[ ${#folders[@]} -eq 0 ]] || ! grep -rqw --include='*.h' --include='*.cpp' "MessageId::$id" "${folders[@]}"; then
    elsewhere=$(grep -rlw --include='*.h' --include='*.cpp' "MessageId::$id" "$root/src" "$root/include" 2>/dev/null |
      sed "s|^$root/||" | head -3 | xargs || true)
    if [[ -n "$elsewhere" ]]; then
      echo "check-messages: $layer.$id is listed under $layer but emitted in $elsewhere"
    else
      echo "check-messages: $layer.$id is never emitted (no MessageId::$id under src/$layer or include/warden/$layer)"
    fi
    problems=$((problems + 1))
  fi
done < <("$cli" messages)  # the plain listing: one "<layer>.<Id>  text" a line

if [[ $problems -gt 0 ]]; then
  echo "check-messages: $problems problem(s) in $count messages"
  exit 1
fi
echo "check-messages: $count messages, each emitted by its layer; docs/messages.md is current"
