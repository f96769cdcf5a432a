#!/usr/bin/env bash
# Static metrics of the code a device loss runs through (docs/loss-path.md), as tables:
#  - guard counts: occurrences (grep -F) of each guard's spelling in src/ and include/;
#  - RegistryImpl's data members and member functions, counted on clang's AST (JSON) of
#    src/resources/registry.cpp;
#  - the largest classes of src/ and include/ by members, from clang's AST of every src/*/*.cpp
#    (one unity batch at a time where the build tree is a unity build);
#  - scripts/check-layers.sh's exit status.
#
#   scripts/loss-path-metrics.sh [BUILD_DIR]    # build by default
#
# The compiler flags come from BUILD_DIR/compile_commands.json, which must have been built far
# enough to hold the generated <webgpu/webgpu.h> (BUILD_DIR/include). A tree configured from
# another checkout of warden (its CMakeCache.txt names it) gives only its flags: the sources
# parsed are this checkout's. Needs clang++ and python3; JOBS clang processes at a time (nproc).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-build}"
[[ "$build" = /* ]] || build="$root/$build"
jobs="${JOBS:-$(nproc)}"
for tool in clang++ python3; do
  command -v "$tool" >/dev/null || { echo "loss-path-metrics: $tool is not on PATH" >&2; exit 2; }
done
[[ -f "$build/compile_commands.json" ]] || {
  echo "loss-path-metrics: no $build/compile_commands.json (configure and build that tree first)" >&2
  exit 2
}

commit="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [[ "$commit" != unknown && -n "$(git -C "$root" status --porcelain -- src include 2>/dev/null)" ]]; then
  commit="$commit (with uncommitted changes in src/ or include/)"
fi
echo "loss-path-metrics: commit $commit, flags from $build/compile_commands.json"
echo

# ---- guards ----
echo "| guard (grep -F in src/ and include/) | occurrences |"
echo "| --- | ---: |"
for pattern in 'is_current(' 'refuse_inside_callback' 'refused_inside_recording' 'loss_forced' 'device_lost()' \
  'superseded()' 'std::recursive_mutex' 'RegistryLock'; do
  count=$( { grep -rFo -- "$pattern" "$root/src" "$root/include" || true; } | wc -l)  # a guard that is gone counts 0
  echo "| \`$pattern\` | $count |"
done
echo

# ---- classes, on clang's AST ----
python3 - "$root" "$build" "$jobs" <<'PY'
import glob, json, os, re, shlex, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

root, build, jobs = os.path.realpath(sys.argv[1]), sys.argv[2], int(sys.argv[3])

# The checkout the tree was configured from; its paths are mapped onto this one.
configured_from = root
with open(os.path.join(build, "CMakeCache.txt")) as cache:
    for line in cache:
        if line.startswith("CMAKE_HOME_DIRECTORY:"):
            configured_from = os.path.realpath(line.split("=", 1)[1].strip())

def here(path):
    """`path` in this checkout when it is one of the sources (src/, include/), else as it is."""
    path = os.path.normpath(path)
    for folder in ("/src", "/include"):
        mine = configured_from + folder
        if configured_from != root and (path == mine or path.startswith(mine + "/")):
            return root + path[len(configured_from):]
    return path

# Only what decides how a file parses: macros, include paths, the standard. The precompiled
# header of g++ is left out (clang cannot read it; the headers it holds are included anyway).
def flags_of(entry):
    args = entry.get("arguments") or shlex.split(entry["command"])
    out, i = [], 1
    while i < len(args):
        a = args[i]
        if a in ("-I", "-isystem", "-iquote", "-D", "-U") and i + 1 < len(args):
            value = args[i + 1]
            out += [a, here(value) if a != "-D" and a != "-U" else value]
            i += 2
            continue
        if a.startswith("-I"):
            out.append("-I" + here(a[2:]))
        elif a.startswith(("-D", "-U", "-std=")):
            out.append(a)
        i += 1
    return out

src_file = re.compile(r"^" + re.escape(root) + r"/src/[^/]+/[^/]+\.cpp$")
units = []  # (flags, [source files]); a unity batch is one unit
for entry in json.load(open(os.path.join(build, "compile_commands.json"))):
    path = entry["file"] if os.path.isabs(entry["file"]) else os.path.join(entry["directory"], entry["file"])
    if "-x c++-header" in entry.get("command", "") or "c++-header" in entry.get("arguments", []):
        continue
    if re.search(r"/Unity/unity_[^/]*\.cxx$", path):
        with open(path) as unity:
            sources = [here(p) for p in re.findall(r'^#include "([^"]+)"', unity.read(), re.M)]
    else:
        sources = [here(path)]
    if sources and all(src_file.match(s) for s in sources):
        units.append((flags_of(entry), sources))
if not units:
    sys.exit("loss-path-metrics: compile_commands.json names no file of src/*/*.cpp")
# The tree may list another set of files than this checkout holds (configured before a file was
# added or removed): the checkout decides. A file the tree does not know is parsed alone with the
# flags of a unit of its folder; one of a folder the tree does not build (a tree without the
# command-line tool) is left out, and named.
dropped = sum(1 for _, sources in units for s in sources if not os.path.exists(s))
units = [(f, [s for s in sources if os.path.exists(s)]) for f, sources in units]
units = [u for u in units if u[1]]
known = {s for _, sources in units for s in sources}
added, skipped = 0, []
for source in sorted(glob.glob(root + "/src/*/*.cpp")):
    if source in known:
        continue
    folder = os.path.dirname(source)
    flags = next((f for f, sources in units if any(os.path.dirname(s) == folder for s in sources)), None)
    if flags is None:
        skipped.append(os.path.relpath(source, root))
        continue
    units.append((flags, [source]))
    added += 1
if dropped or added:
    print(f"note: {dropped} files of the tree's list are not in this checkout; {added} files of this checkout "
          "are not in its list and were parsed alone\n")
if skipped:
    print(f"note: left out, their folders are not built in {build}: {' '.join(skipped)}\n")

def clang(flags, sources, dump, name_filter):
    """Starts clang on a unit of its own that includes `sources`; its errors go to a file."""
    with tempfile.NamedTemporaryFile("w", suffix=".cpp", delete=False) as unit:
        unit.write("".join(f'#include "{s}"\n' for s in sources))
    errors = tempfile.TemporaryFile("w+")
    command = ["clang++", *flags, "-fsyntax-only", "-Wno-everything", "-fno-color-diagnostics",
               "-Xclang", dump, "-Xclang", f"-ast-dump-filter={name_filter}", unit.name]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True, errors="replace")
    return unit.name, process, errors

def finish(unit, process, errors, sources):
    """Waits for clang; a unit it could not parse makes every count doubtful, so it stops here."""
    if process.wait() != 0:
        errors.seek(0)
        sys.exit(f"loss-path-metrics: clang could not parse {', '.join(os.path.relpath(s, root) for s in sources)}:\n"
                 + errors.read()[:2000])
    errors.close()
    os.unlink(unit)

# What a member declaration line or node is: a data member, a member function, or neither.
FUNCTION_KINDS = {"CXXMethodDecl", "CXXConstructorDecl", "CXXDestructorDecl", "CXXConversionDecl", "FunctionTemplateDecl"}
def member_kind(kind):
    if kind == "FieldDecl":
        return "fields"
    if kind in FUNCTION_KINDS:
        return "functions"
    if kind == "VarDecl":
        return "static_data"
    return None

def empty_counts():
    return {"fields": 0, "functions": 0, "static_data": 0, "CXXMethodDecl": 0}

# ---- RegistryImpl on the JSON AST of src/resources/registry.cpp ----
registry_cpp = root + "/src/resources/registry.cpp"
flags = next((f for f, s in units if registry_cpp in s), None)
if flags is None:
    sys.exit("loss-path-metrics: src/resources/registry.cpp is not in compile_commands.json")
unit, process, errors = clang(flags, [registry_cpp], "-ast-dump=json", "RegistryImpl")
text = process.stdout.read()
finish(unit, process, errors, [registry_cpp])
registry = None
# One JSON object per declaration whose name holds RegistryImpl, each starting at a line "{".
for chunk in re.split(r"(?m)^(?=\{$)", text):
    if not chunk.strip() or '"kind": "CXXRecordDecl"' not in chunk[:400]:
        continue
    node = json.loads(chunk)
    if node.get("name") == "RegistryImpl" and node.get("completeDefinition"):
        registry = node
        break
if registry is None:
    sys.exit("loss-path-metrics: no definition of RegistryImpl in clang's AST of src/resources/registry.cpp")
json_counts = empty_counts()
for member in registry.get("inner", []):
    kind = member_kind(member["kind"])
    if kind is None or member.get("isImplicit"):
        continue
    json_counts[kind] += 1
    json_counts["CXXMethodDecl"] += member["kind"] == "CXXMethodDecl"

# ---- every class, on the text AST of each unit (the JSON one is a hundred times larger) ----
NODE = re.compile(r"^[| `-]*")
LOCATION = re.compile(r"(/[^\s:<>,]+|<scratch space>|<built-in>|<command line>):\d+:\d+")
FLAGS = {"implicit", "used", "referenced", "invalid", "hidden", "imported", "<undeserialized", "declarations>"}

def balanced(line, at):
    """The end of the <...> starting at `at`, nested brackets included."""
    depth = 0
    for i in range(at, len(line)):
        depth += {"<": 1, ">": -1}.get(line[i], 0)
        if depth == 0:
            return i + 1
    return len(line)

def classes_of(flags, sources):
    """{(qualified name, file): counts} of the class definitions clang dumps under warden::."""
    unit, process, errors = clang(flags, sources, "-ast-dump", "warden::")
    found = {}
    scopes = []      # (depth, name) of the enclosing scopes
    records = []     # (depth, key) of the classes around the line, innermost last
    prefix = ""
    current_file = ""
    for line in process.stdout:
        if line.startswith("Dumping "):
            prefix = line[len("Dumping "):].rstrip().rstrip(":").rpartition("::")[0]
            scopes, records, current_file = [], [], ""
            continue
        start = NODE.match(line).end()
        depth = start // 2
        rest = line[start:].rstrip("\n")
        kind = rest.split(" ", 1)[0]
        # The location part: after the node's addresses, a <range>, the location, maybe a
        # <Spelling=...>. The dump names a file only when it changes, so it is followed in order.
        at = len(kind) + 1
        while True:
            m = re.match(r"(?:parent |prev )?0x[0-9a-f]+ ", rest[at:])
            if not m:
                break
            at += m.end()
        location, tail = "", rest[at:]
        if tail.startswith("<"):
            end = balanced(tail, 0)
            location = tail[:end]
            tail = tail[end:].lstrip(" ")
            loc_word = tail.split(" ", 1)[0]
            if re.match(r"(line:|col:|/|<scratch space>|<built-in>|<invalid sloc>)", loc_word):
                location += " " + loc_word
                tail = tail[len(loc_word):].lstrip(" ")
                if tail.startswith("<Spelling="):
                    end = balanced(tail, 0)
                    location += tail[:end]
                    tail = tail[end:].lstrip(" ")
            for m in LOCATION.finditer(location):
                current_file = m.group(1)
        while scopes and scopes[-1][0] >= depth:
            scopes.pop()
        while records and records[-1][0] >= depth:
            records.pop()
        words = tail.split(" ")
        flags_seen = set()
        while words and words[0] in FLAGS:
            flags_seen.add(words.pop(0))
        if records and depth == records[-1][0] + 1:
            member = member_kind(kind)
            if member and "implicit" not in flags_seen:
                counts = found[records[-1][1]]
                counts[member] += 1
                counts["CXXMethodDecl"] += kind == "CXXMethodDecl"
        scope = ([prefix] if prefix else []) + [name for _, name in scopes]
        if kind == "NamespaceDecl":
            scopes.append((depth, words[0] if words and words[0] else "(anonymous namespace)"))
        elif kind == "CXXRecordDecl":
            tag = next((i for i, w in enumerate(words) if w in ("class", "struct", "union")), None)
            name = words[tag + 1] if tag is not None and tag + 1 < len(words) else ""
            definition = words[-1:] == ["definition"]
            if definition and name == "definition" and tag + 2 == len(words):
                name = ""  # "struct definition": unnamed
            scopes.append((depth, name or "(unnamed)"))
            if definition and name and "implicit" not in flags_seen:
                key = ("::".join(scope + [name]), os.path.normpath(current_file))
                found.setdefault(key, empty_counts())
                records.append((depth, key))
        elif kind in ("ClassTemplateSpecializationDecl", "ClassTemplatePartialSpecializationDecl"):
            # Instances and specializations of a template: its pattern is counted once, as the
            # CXXRecordDecl inside the ClassTemplateDecl.
            scopes.append((depth, "(specialization)"))
        elif kind == "ClassTemplateDecl":
            scopes.append((depth, words[0] if words else ""))
        elif kind in ("FunctionDecl", "CXXMethodDecl", "CXXConstructorDecl", "CXXDestructorDecl"):
            scopes.append((depth, (words[0] if words else "") + "()"))  # a class local to a function
    finish(unit, process, errors, sources)
    return found

with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
    results = list(pool.map(lambda u: classes_of(*u), units))
classes = {}
for found in results:
    for key, counts in found.items():
        if key[1].startswith((root + "/src/", root + "/include/")) and "(specialization)" not in key[0]:
            classes[key] = max(classes.get(key, counts), counts, key=lambda c: c["fields"] + c["functions"])
# Templates are dumped as "ClassTemplateDecl Name" holding "CXXRecordDecl Name": drop the
# template's own level from the name.
by_name = {}
for (name, file), counts in classes.items():
    parts = name.split("::")
    clean = "::".join(p for i, p in enumerate(parts) if not (i + 1 < len(parts) and parts[i + 1] == p))
    by_name[(clean, file)] = counts

text_registry = next((c for (n, f), c in by_name.items() if n == "warden::resources::RegistryImpl"), None)

def row(name, file, c, note=""):
    return (f"| `{name}`{note} | {os.path.relpath(file, root)} | {c['fields']} | {c['functions']} "
            f"({c['CXXMethodDecl']} CXXMethodDecl) | {c['fields'] + c['functions']} |")

print("| class | file | data members (FieldDecl) | member functions | members |")
print("| --- | --- | ---: | ---: | ---: |")
registry_file = os.path.normpath(root + "/src/resources/registry_impl.h")
print(row("warden::resources::RegistryImpl", registry_file, json_counts, " (JSON AST of registry.cpp)"))
ranked = sorted(by_name.items(), key=lambda kv: (-(kv[1]["fields"] + kv[1]["functions"]), kv[0]))
for (name, file), counts in ranked[:5]:
    print(row(name, file, counts))
print()
print(f"member functions: CXXMethodDecl, constructors, destructors, conversions and member templates "
      f"as written (implicit ones left out); static data members not counted "
      f"(RegistryImpl: {json_counts['static_data']}). Largest of {len(by_name)} classes defined in src/ and "
      f"include/, from {sum(len(s) for _, s in units)} files in {len(units)} units.")
if text_registry is None or {k: text_registry[k] for k in json_counts} != json_counts:
    print(f"warning: the text AST counts RegistryImpl as {text_registry}, the JSON AST as {json_counts}")
    sys.exit(1)
PY
echo

# ---- layers ----
status=0
"$root/scripts/check-layers.sh" "$root" >/tmp/loss-path-metrics-layers.$$ 2>&1 || status=$?
echo "| check | result |"
echo "| --- | --- |"
echo "| scripts/check-layers.sh | exit $status$([[ $status -eq 0 ]] && echo ' (clean)') |"
[[ $status -eq 0 ]] || sed 's/^/  /' /tmp/loss-path-metrics-layers.$$
rm -f /tmp/loss-path-metrics-layers.$$
