#!/bin/sh
# demo.sh: builds the project (installing missing Debian packages first) and runs the demo:
# fib and N-Queens through the runtime on the GPU, with results and times. On a machine
# without a CUDA device (gtap_demo exits 77) it runs the same demo on the CPU reference
# executor (gtap_demo_host: the program built with gtapcc --target=host) and says so.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" "$root/build"
rc=0
"$root/build/apps/demo/gtap_demo" "$@" || rc=$?
if [ "$rc" -eq 77 ]; then
    echo "gtap demo: running it on the CPU reference executor instead (one CPU thread runs every task)"
    exec "$root/build/apps/demo/gtap_demo_host" "$@"
fi
exit "$rc"
