#!/bin/sh
# check_csv.sh COMMAND [ARGS...]: runs an application with --csv and checks its stdout: one
# row of the 16 columns of APP_CSV_HEADER whose check column says "pass". Exit 77 passes on.
out=$("$@" --csv 2>/dev/null)
rc=$?
[ "$rc" -eq 77 ] && exit 77
printf '%s\n' "$out"
[ "$rc" -eq 0 ] || { echo "check_csv: exit status $rc" >&2; exit 1; }
[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || { echo "check_csv: expected one line on stdout" >&2; exit 1; }
printf '%s\n' "$out" | awk -F, 'NF != 16 { print "check_csv: " NF " columns, expected 16" > "/dev/stderr"; exit 1 }
                                $15 != "pass" { print "check_csv: check column is " $15 > "/dev/stderr"; exit 1 }'
