# Timing helpers for scripts/bench-*. Sourced, not run.
#
# bench_pair RUNS LABEL_A 'COMMAND A' LABEL_B 'COMMAND B'
#   Runs A and B alternately (one warm-up each, then RUNS counted pairs), so
#   that drift of a noisy machine hits both alike, and prints each median in
#   milliseconds and the ratio of the medians A/B. Commands run through
#   `bash -c` with stdout and stderr discarded.

now_ns() { date +%s%N; }

median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

time_once() {
  local t0 t1
  t0=$(now_ns)
  bash -c "$1" >/dev/null 2>&1 || { echo "bench: command failed: $1" >&2; return 1; }
  t1=$(now_ns)
  echo $(( (t1 - t0) / 1000 ))
}

bench_pair() {
  local runs=$1 la=$2 ca=$3 lb=$4 cb=$5 i
  local -a ta=() tb=()
  time_once "$ca" >/dev/null && time_once "$cb" >/dev/null || return 1
  for ((i = 0; i < runs; i++)); do
    ta+=("$(time_once "$ca")") || return 1
    tb+=("$(time_once "$cb")") || return 1
  done
  local ma mb
  ma=$(printf '%s\n' "${ta[@]}" | median)
  mb=$(printf '%s\n' "${tb[@]}" | median)
  printf '%-28s median %8.1f ms  (n=%d)\n' "$la" "$(echo "$ma / 1000" | bc -l)" "$runs"
  printf '%-28s median %8.1f ms  (n=%d)\n' "$lb" "$(echo "$mb / 1000" | bc -l)" "$runs"
  printf '%-28s %.3f\n' "ratio $la / $lb" "$(echo "$ma / $mb" | bc -l)"
}

# bench_rows RUNS LABEL_1 'COMMAND 1' ... LABEL_N 'COMMAND N'
#   bench_pair for several commands: each round runs them all in turn (one
#   warm-up round, then RUNS counted ones), and it prints each median and
#   the ratio of each median to the last command's, the floor.
bench_rows() {
  local runs=$1 i k n t
  shift
  local -a labels=() cmds=() times=()
  while (($# >= 2)); do
    labels+=("$1") cmds+=("$2")
    shift 2
  done
  n=${#cmds[@]}
  for ((i = 0; i <= runs; i++)); do
    for ((k = 0; k < n; k++)); do
      t=$(time_once "${cmds[k]}") || return 1
      ((i > 0)) && times[k]+=" $t"
    done
  done
  local -a m=()
  for ((k = 0; k < n; k++)); do
    m[k]=$(tr ' ' '\n' <<<"${times[k]}" | grep . | median)
    printf '%-32s median %8.1f ms  (n=%d)\n' "${labels[k]}" "$(echo "${m[k]} / 1000" | bc -l)" "$runs"
  done
  for ((k = 0; k < n - 1; k++)); do
    printf '%-32s %.3f\n' "ratio ${labels[k]} / ${labels[n - 1]}" "$(echo "${m[k]} / ${m[n - 1]}" | bc -l)"
  done
}

# bench_pair_prepared RUNS LABEL_A 'PREP A' 'COMMAND A' LABEL_B 'PREP B' 'COMMAND B'
#   bench_pair with an untimed preparation before each timed command, and
#   the median CPU time (user + sys, the command's children included) beside
#   each median wall time: CPU time moves far less with the machine's load.
bench_pair_prepared() {
  local runs=$1 la=$2 pa=$3 ca=$4 lb=$5 pb=$6 cb=$7 i
  local -a ta=() tb=() ua=() ub=()
  local out=${TMPDIR:-/tmp}/bench-time.$$
  run_prepared() { # PREP COMMAND: prints "wall_us cpu_us"
    bash -c "$1" >/dev/null 2>&1 || { echo "bench: preparation failed: $1" >&2; return 1; }
    /usr/bin/time -f '%e %U %S' -o "$out" bash -c "$2" >/dev/null 2>&1 || { echo "bench: command failed: $2" >&2; return 1; }
    awk '{printf "%d %d\n", $1 * 1000000, ($2 + $3) * 1000000}' "$out"
  }
  run_prepared "$pa" "$ca" >/dev/null && run_prepared "$pb" "$cb" >/dev/null || return 1
  local r
  for ((i = 0; i < runs; i++)); do
    r=$(run_prepared "$pa" "$ca") || return 1
    ta+=("${r% *}") ua+=("${r#* }")
    r=$(run_prepared "$pb" "$cb") || return 1
    tb+=("${r% *}") ub+=("${r#* }")
  done
  rm -f "$out"
  local ma mb ca_ cb_
  ma=$(printf '%s\n' "${ta[@]}" | median) mb=$(printf '%s\n' "${tb[@]}" | median)
  ca_=$(printf '%s\n' "${ua[@]}" | median) cb_=$(printf '%s\n' "${ub[@]}" | median)
  printf '%-28s median %8.1f ms, CPU %8.1f ms  (n=%d, load %s)\n' "$la" "$(echo "$ma / 1000" | bc -l)" "$(echo "$ca_ / 1000" | bc -l)" "$runs" "$(cut -d' ' -f1 /proc/loadavg)"
  printf '%-28s median %8.1f ms, CPU %8.1f ms  (n=%d, load %s)\n' "$lb" "$(echo "$mb / 1000" | bc -l)" "$(echo "$cb_ / 1000" | bc -l)" "$runs" "$(cut -d' ' -f1 /proc/loadavg)"
  printf '%-28s %.3f (CPU %.3f)\n' "ratio $la / $lb" "$(echo "$ma / $mb" | bc -l)" "$(echo "$ca_ / $cb_" | bc -l)"
}
