#!/bin/sh
# test.sh: builds the project (installing missing Debian packages first) and runs the test
# suite. Tests that need a GPU report "skipped" on a machine without one.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" "$root/build"
cd "$root/build"
exec ctest --output-on-failure -j "$(nproc)" "$@"
