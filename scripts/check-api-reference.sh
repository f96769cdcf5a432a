#!/usr/bin/env bash
# Checks what the generated API reference shows, after scripts/api-docs.sh made it (ctest
# Docs.ApiReferenceShowsFrontPageAndFileComments, after Docs.ApiReferenceHasNoWarnings):
#
#   scripts/check-api-reference.sh HTML_DIR [WARDEN_ROOT]   # 0: as it should be; 1: findings; 2: usage
#
#  - the front page (index.html) is not blank: it says what warden is and where to start, and
#    names docs/getting-started.md, docs/design.md and the lifecycle pages;
#  - every installed header (include/warden/<layer>/*.h, not demo/ or app/) opens with a file
#    comment (`/// @file`), has a page, and that page shows the comment's first words;
#  - nothing of the programs' folders is documented: no page for a header of include/warden/demo
#    or include/warden/app, none for the namespaces warden::demo and warden::app.
set -euo pipefail

html=${1:-}
[[ -n "$html" && -f "$html/index.html" ]] || { echo "check-api-reference: no index.html in '${html}' (run scripts/api-docs.sh first)" >&2; exit 2; }
root="${2:-$(cd "$(dirname "$0")/.." && pwd)}"
[[ -d "$root/include/warden" ]] || { echo "check-api-reference: no include/warden in '$root'" >&2; exit 2; }

findings=0
finding() { echo "$1"; findings=$((findings + 1)); }

# The words a page shows: the contents part, tags dropped, entities of the plain kind decoded,
# whitespace collapsed.
page_text() {
  sed -n '/<div class="contents">/,/<!-- start footer part -->/p' "$1" |
    sed -E 's/<[^>]*>//g; s/&#160;/ /g; s/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&#39;/'"'"'/g; s/&amp;/\&/g' | tr -s '[:space:]' ' '
}

# ---- the front page -------------------------------------------------------------------------
front=$(page_text "$html/index.html")
words=$(wc -w <<< "$front")
if (( words < 100 )); then
  finding "$html/index.html: the front page is blank or nearly ($words words): docs/api/mainpage.dox should say what warden is and where to start"
fi
for guide in docs/getting-started.md docs/design.md docs/lifecycle-in-detail.md docs/device-lifecycle.md; do
  [[ "$front" == *"$guide"* ]] || finding "$html/index.html: the front page does not name $guide"
done

# ---- every installed header's file comment --------------------------------------------------
declare -A page_of=()
while IFS= read -r page; do
  title=$(grep -o -m1 '<title>[^<]*</title>' "$page" || true)
  [[ "$title" =~ ^\<title\>warden:\ (warden/[^<]*\.h)\ File\ Reference\</title\>$ ]] && page_of[${BASH_REMATCH[1]}]=$page
done < <(find "$html" -maxdepth 1 -name '*_8h.html')

while IFS= read -r header; do
  rel=${header#"$root"/include/}
  if [[ "$(head -n 1 "$header")" != "/// @file" ]]; then
    finding "include/$rel:1: no file comment: an installed header opens with '/// @file' and its contract"
    continue
  fi
  page=${page_of[$rel]:-}
  if [[ -z "$page" ]]; then
    finding "include/$rel: the reference has no page for it"
    continue
  fi
  # The first six words of the comment's first line, markdown's code and emphasis marks dropped.
  first=$(sed -n '2{s|^///[[:space:]]*||;p}' "$header" | tr -d '`*' | tr -s ' ' | cut -d' ' -f1-6 | sed -E 's/[[:space:]]+$//')
  if [[ $(wc -w <<< "$first") -lt 2 ]]; then
    finding "include/$rel:2: the file comment's first line has too few plain words to look for ('$first')"
  elif [[ "$(page_text "$page")" != *"$first"* ]]; then
    finding "$page: the page of $rel does not show its file comment ('$first ...')"
  fi
done < <(find "$root/include/warden" -name '*.h' -not -path '*/include/warden/demo/*' -not -path '*/include/warden/app/*' | sort)

# ---- nothing of the programs ----------------------------------------------------------------
for page in "${!page_of[@]}"; do
  [[ "$page" == warden/demo/* || "$page" == warden/app/* ]] &&
    finding "${page_of[$page]}: a page for $page, a header that is not installed"
done
while IFS= read -r page; do
  finding "$page: a page of namespace warden::demo or warden::app, which are not installed"
done < <(find "$html" -maxdepth 1 \( -name '*warden_1_1demo*' -o -name '*warden_1_1app*' \) | sort)

if (( findings )); then
  echo "check-api-reference: $findings finding(s)" >&2
  exit 1
fi
echo "check-api-reference: a front page of $words words, ${#page_of[@]} header pages each showing its file comment, nothing of demo/ or app/"
