#!/usr/bin/env bash
# Draws the curves of one `make bench` run as SVG with gnuplot (Debian: gnuplot-nox):
#   scripts/bench-plot.sh RESULTS_JSON OUT_DIR
# reads OUT_DIR/curves/*.dat (written by warden_bench beside RESULTS_JSON) and writes
# OUT_DIR/{resolve,churn,layerpool,tile_frame,churn_threads,churn_device_threads}.svg. The machine and backend go in each title.
set -euo pipefail
results="$1"
out="$2"
curves="$out/curves"
field() { { grep -o "\"$1\": *\"[^\"]*\"" "$results" || true; } | head -n 1 | sed 's/.*: *"\(.*\)"/\1/'; }
machine=$(field bench_machine)
date=$(field bench_date)
commit=$(field bench_commit)
tile_backend=$(field tile_frame_loop_backend)
churn_device_backend=$(field registry_churn_device_ns_threads_label)
where="${machine:-this machine}, ${date:-undated}, ${commit:-no commit}"

plot() {  # name title ylabel backend series1 series2
  local name=$1 title=$2 ylabel=$3 backend=$4 first=$5 second=$6
  [[ -f "$curves/$name.dat" ]] || return 0
  # A figure with no measured point (every scenario behind it skipped or filtered out): none.
  if ! awk '!/^#/ && ($2 != "NaN" || $3 != "NaN") { found = 1 } END { exit !found }' "$curves/$name.dat"; then
    echo "bench: nothing measured for $name, no figure"
    return 0
  fi
  gnuplot <<GNUPLOT
set terminal svg size 720,440 dynamic font "sans,12"
set output "$out/$name.svg"
set title "$title\n{/*0.8 $where; backend: $backend}"
set datafile missing "NaN"
set logscale x
set logscale y
set grid
set key top left
set xlabel "$(case $name in layerpool) echo layers ;; tile_frame) echo 'visible tiles' ;; *_threads) echo 'threads at once' ;; *) echo 'live objects' ;; esac)"
set ylabel "$ylabel"
plot "$curves/$name.dat" using 1:2 with linespoints lw 2 pt 7 title "$first", \
     "" using 1:3 with linespoints lw 2 pt 5 title "$second"
GNUPLOT
  echo "bench: drew $out/$name.svg"
}

plot resolve "Handle resolve against a raw pointer" "ns per lookup" "none (CPU only)" "Registry::resolve" "raw pointer"
plot churn "Create + destroy of a buffer" "ns per create+destroy" "null" "through the Registry" "raw Dawn calls"
plot layerpool "LayerPool acquire+touch+release" "ns per operation" "none (CPU only)" "LayerPool" "reference pool (scan and splice)"
plot tile_frame "Tile frame (CPU + driver work per frame)" "ms per frame" "${tile_backend:-?}" "recycled layers" "texture per tile"
plot churn_threads "Create + destroy of a buffer from several threads at once" "ns per create+destroy on each thread" "null" "through the Registry" "raw Dawn calls"
plot churn_device_threads "Create + destroy of a buffer from several threads, on the machine's device" "ns per create+destroy on each thread" "${churn_device_backend:-?}" "through the Registry" "raw Dawn calls"
