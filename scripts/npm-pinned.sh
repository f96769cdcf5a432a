# Sourced by the fetch-* scripts: one way to take a package from the npm registry pinned by the
# integrity the registry published for that version.
#
#   npm_pack_verified TAG PACKAGE VERSION INTEGRITY WORK
# packs PACKAGE@VERSION into WORK, checks its sha512 against INTEGRITY and prints the tarball's
# path; on a mismatch it names both values (prefixed by TAG) and fails.
npm_pack_verified() {
  local tag="$1" package="$2" version="$3" integrity="$4" work="$5"
  echo "$tag: npm pack $package@$version" >&2
  (cd "$work" && npm pack --silent "$package@$version" >/dev/null) || return 1
  local tarball="$work/$package-$version.tgz" actual
  actual="sha512-$(node -e 'const c=require("crypto"),f=require("fs");process.stdout.write(c.createHash("sha512").update(f.readFileSync(process.argv[1])).digest("base64"))' "$tarball")"
  if [[ "$actual" != "$integrity" ]]; then
    echo "$tag: integrity mismatch for $package@$version" >&2
    echo "  expected $integrity" >&2
    echo "  got      $actual" >&2
    return 1
  fi
  echo "$tarball"
}

#   npm_fetch_pinned TAG PACKAGE VERSION INTEGRITY DEST FILE...
# puts FILEs of PACKAGE@VERSION (paths inside the tarball's package/; PATH=NAME renames one)
# into DEST and records INTEGRITY there; does nothing when DEST already has every file and the
# same integrity, so a second run costs nothing. Prints what it fetched, prefixed by TAG.
npm_fetch_pinned() {
  local tag="$1" package="$2" version="$3" integrity="$4" dest="$5"
  shift 5
  local stamp="$dest/.integrity" file present=1
  for file in "$@"; do
    [[ -f "$dest/$(npm_pinned_name "$file")" ]] || present=0
  done
  if (( present )) && [[ -f "$stamp" && "$(cat "$stamp")" == "$integrity" ]]; then
    return 0
  fi
  local work tarball
  work=$(mktemp -d)
  tarball=$(npm_pack_verified "$tag" "$package" "$version" "$integrity" "$work") || { rm -rf "$work"; return 1; }
  local inside=()
  for file in "$@"; do inside+=("package/${file%%=*}"); done
  tar xzf "$tarball" -C "$work" "${inside[@]}" || { rm -rf "$work"; return 1; }
  mkdir -p "$dest"
  for file in "$@"; do
    mv "$work/package/${file%%=*}" "$dest/$(npm_pinned_name "$file")"
  done
  rm -rf "$work"
  echo "$integrity" > "$stamp"
  echo "$tag: $dest/$(npm_pinned_name "$1")"
}

# The name FILE gets in DEST: what follows '=', else its last path component.
npm_pinned_name() {
  if [[ "$1" == *=* ]]; then echo "${1#*=}"; else basename "$1"; fi
}
