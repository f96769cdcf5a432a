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
