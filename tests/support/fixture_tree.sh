# Shared by the fixture tests of the repository checks (tests/layers, tests/messages): a small
# warden-shaped tree in a temporary folder, and an assertion on what a check says about it.
# The sourcing script sets `case_name` and defines `run_check` (the check run on "$tree").
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT

put() {  # put PATH LINE...: writes a file of the fixture tree
  mkdir -p "$tree/$(dirname "$1")"
  local path="$1"; shift
  printf '%s\n' "$@" > "$tree/$path"
}

# Runs the check; asserts its exit code and that its output holds every expected piece.
expect() {  # expect CODE PIECE...
  local want="$1"; shift
  local out code=0
  out=$(run_check 2>&1) || code=$?
  if [[ "$code" != "$want" ]]; then
    printf 'FAIL %s: exit %s, expected %s. Output:\n%s\n' "$case_name" "$code" "$want" "$out"; exit 1
  fi
  local piece
  for piece in "$@"; do
    if [[ "$out" != *"$piece"* ]]; then
      printf 'FAIL %s: output lacks "%s". Output:\n%s\n' "$case_name" "$piece" "$out"; exit 1
    fi
  done
  printf 'ok %s\n%s\n' "$case_name" "$out"
}
