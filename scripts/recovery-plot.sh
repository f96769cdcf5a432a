#!/usr/bin/env bash
# Draws a recovery record (docs/perf/recovery-*.json: {machine, scenario, sets: [{commit,
# paths, runs: [recovery_scenario's JSON, ...]}]}) as one SVG with gnuplot (Debian: gnuplot-nox):
# loss to first frame against the kept bytes a recovery writes back, the median of the runs of
# each set at 16, 64 and 256 textures, with the bound (kept bytes over the faster upload path's
# bandwidth, measured in the same runs) and 1.5x the bound beside them.
#
#   scripts/recovery-plot.sh RECORD_JSON OUT_SVG
#
# docs/recovery-time.md shows what this draws from the records in docs/perf.
set -euo pipefail
record="$1"
out="$2"
data=$(mktemp)
trap 'rm -f "$data"' EXIT
# One row per size: kept MB, then for each set its no-spare, spare and spare-holding medians, then
# the bound and 1.5x the bound (from the last set's runs). The header line names the columns.
python3 - "$record" > "$data" <<'PY'
import json, statistics, sys
record = json.load(open(sys.argv[1]))
sets = record["sets"]
def med(runs, key):
    values = [r[key] for r in runs if key in r]
    return statistics.median(values) if values else float("nan")
names = []
for s in sets:
    label = s.get("paths", s["commit"])
    names += [f"{label}: no spare", f"{label}: with the spare", f"{label}: spare holding the textures"]
print("# " + "\t".join(["kept MB"] + names + ["bound", "1.5x the bound"]))
for suffix in ["_16", "", "_256"]:
    last = sets[-1]["runs"]
    row = [med(last, "recovery_kept_bytes" + suffix) / 1e6]
    for s in sets:
        for key in ["recovery_ms", "recovery_standby_ms", "recovery_standby_held_ms"]:
            row.append(med(s["runs"], key + suffix))
    bound = med(last, "recovery_bound_ms" + suffix)
    row += [bound, 1.5 * bound]
    print("\t".join(f"{v:.3f}" for v in row))
PY
machine=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["machine"])' "$record")
columns=$(head -n 1 "$data" | sed 's/^# //' | awk -F'\t' '{ print NF }')
plots=""
for ((c = 2; c <= columns; c++)); do
  title=$(head -n 1 "$data" | sed 's/^# //' | cut -f "$c")
  style="linespoints lw 2 pt 7"
  case "$title" in
    bound) style="lines lw 2 dt 2 lc rgb 'black'" ;;
    "1.5x the bound") style="lines lw 1 dt 3 lc rgb 'black'" ;;
    as\ before*) style="linespoints lw 1 dt 4 pt 6" ;;
  esac
  plots+="${plots:+, }\"$data\" using 1:$c with $style title \"$title\""
done
gnuplot <<GNUPLOT
set terminal svg size 760,480 dynamic font "sans,12"
set output "$out"
set title "Loss to first frame against the contents a recovery writes back\n{/*0.8 $machine}"
set datafile missing "nan"
set logscale xy
set grid
set key outside right top font ",10"
set xlabel "kept bytes written back (MB): 16, 64, 256 textures"
set ylabel "ms, median of the runs"
plot $plots
GNUPLOT
echo "recovery-plot: drew $out"
