#!/bin/bash
# run.sh BUILD [PRESETS...] - UTS on one GPU: the compute bound of a node (uts_sha1_bound),
# the plain program (uts_gpu) and the budgeted depth-first one (uts_dfs_gpu) at several
# budgets, 3 runs each, every count checked against the published one (a mismatch fails the
# script). Prints `program,preset,budget,median_ms,mnodes_s,share_of_bound` (CSV).
# Default presets: T1L T3L T1XXL T3XXL; BUDGETS (environment) default "64 128 256 1024".
set -u
if [ $# -lt 1 ]; then sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 2; fi
build=$1; shift
presets=${*:-T1L T3L T1XXL T3XXL}
budgets=${BUDGETS:-64 128 256 1024}
u=$build/apps/uts
for b in uts_sha1_bound uts_gpu uts_dfs_gpu; do
    [ -x "$u/$b" ] || { echo "run.sh: $u/$b is not built" >&2; exit 2; }
done
median_of_runs() { # stdin: the program's output -> the median "in X ms"; fails on FAIL or no run
    local out times
    out=$(cat)
    echo "$out" | grep -q '^FAIL' && return 1
    times=$(echo "$out" | sed -n 's/^PASS: .* in \([0-9.]*\) ms.*/\1/p' | sort -g)
    [ -n "$times" ] || return 1
    echo "$times" | awk '{t[NR] = $1} END {print t[int((NR + 1) / 2)]}'
}
echo "program,preset,budget,median_ms,mnodes_s,share_of_bound"
for p in $presets; do
    bound=$("$u/uts_sha1_bound" "$p" 2048 | sed -n 's/.*: \([0-9.]*\) Mnodes\/s.*/\1/p')
    [ -n "$bound" ] || { echo "run.sh: uts_sha1_bound $p failed" >&2; exit 1; }
    echo "uts_sha1_bound,$p,,,$bound,1"
    run() { # program budget args...
        local prog=$1 budget=$2; shift 2
        local out ms nodes
        out=$("$u/$prog" "$@") || { echo "$out" >&2; echo "run.sh: $prog $* failed" >&2; exit 1; }
        ms=$(echo "$out" | median_of_runs) || { echo "$out" >&2; exit 1; }
        nodes=$(echo "$out" | sed -n 's/^PASS: UTS [^ ]* = \([0-9]*\) nodes.*/\1/p' | head -1)
        awk -v pr="$prog" -v p="$p" -v b="$budget" -v ms="$ms" -v n="$nodes" -v bd="$bound" \
            'BEGIN {r = n / (ms * 1e3); printf "%s,%s,%s,%s,%.1f,%.4f\n", pr, p, b, ms, r, r / bd}'
    }
    run uts_gpu "" "$p" 3
    for b in $budgets; do run uts_dfs_gpu "$b" "$p" 3 "$b"; done
done
