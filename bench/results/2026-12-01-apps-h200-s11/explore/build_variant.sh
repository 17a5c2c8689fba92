#!/bin/bash
# build_variant.sh OUTDIR "EXTRA NVCC FLAGS": builds fib, nqueens, cilksort, binary_tree and
# bary_tree from the CI build's gtapgen output (build/) with extra defines, for a device A/B.
root=$(cd "$(dirname "$0")/../../../.." && pwd)
out=$1; extra=$2; mkdir -p $out
B=$root/build
for a in fib/fib nqueens/nqueens cilksort/cilksort tree/binary_tree tree/bary_tree; do
  d=${a%/*}; n=${a#*/}
  defs=$(grep CUDA_DEFINES $B/apps/$d/CMakeFiles/$n.dir/flags.make | cut -d= -f2-)
  nvcc -I$root/apps/$d -I$root/apps/common -I$root/src/node_runtime/include $defs $extra -std=c++20 -O3 -DNDEBUG \
    -arch=sm_90 -c $B/apps/$d/gtapgen/$n/$n.gtap.cu -o /tmp/bv_$n.o &&
  g++ /tmp/bv_$n.o -o $out/$n $B/src/node_runtime/libgtap_host.a $B/apps/libgtap_apps_input.a \
    -L/usr/local/cuda/lib64 -lcudart_static -lrt -lpthread -ldl || echo "FAILED $n"
done
