#!/bin/sh
# demo.sh: builds the project (installing missing Debian packages first) and runs the demo:
# fib and N-Queens through the runtime on the GPU, with results and times.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" "$root/build"
exec "$root/build/apps/demo/gtap_demo" "$@"
