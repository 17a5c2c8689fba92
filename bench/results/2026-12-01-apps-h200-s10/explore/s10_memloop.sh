#!/bin/bash
# s10_memloop.sh INCDIR: SASS check of the binary tree's unrolled memory loop (are its 4 loads issued
# before the first add?). Needs nvdisasm: pip download nvidia-cuda-nvdisasm (PyPI), unzip to /tmp/whl/nvd.
root=$(cd "$(dirname "$0")/../../../.." && pwd)
inc=$1; d=${2:-tree}; n=${3:-binary_tree}; k=${4:-_Z11tree_kerneliii}
cd $root/build-final/apps/$d
nvcc -I$root/apps/$d -I$root/apps/common -I$inc $(grep CUDA_DEFINES CMakeFiles/$n.dir/flags.make | cut -d= -f2-) -std=c++20 -O3 -DNDEBUG $EXTRA -arch=sm_90 -cubin gtapgen/$n/$n.gtap.cu -o /tmp/ml_$$.cubin 2>&1 | grep -i error
/tmp/whl/nvd/nvidia/cu13/bin/nvdisasm -c /tmp/ml_$$.cubin 2>/dev/null | awk -v k=".text.$k:" '$1==k{p=1;next} /^\/\/-------/{if(p)exit} p' | sed 's/ *\/\* [0-9a-fx]* \*\/ *$//; s/^ *\/\*[0-9a-f]*\*\/ *//' | grep -v "^$" > /tmp/ml_$$.s
python3 - /tmp/ml_$$.s <<'PY'
import sys,re
L=[l.strip() for l in open(sys.argv[1])]
# the memory loop: a backward branch whose body holds 4 LD.E.64 and 4 DADD
for i,l in enumerate(L):
    m=re.search(r'@P0 BRA',l)
    if not m: continue
    body=L[max(0,i-120):i]
    lds=[j for j,x in enumerate(body) if x.startswith('LD.E.64') or ' LD.E.64' in x]
    dadds=[j for j,x in enumerate(body) if 'DADD' in x]
    if len(lds)>=4 and len(dadds)>=4 and lds[-1]<dadds[-1] and dadds[-1]>len(body)-12:
        last4=lds[-4:]
        first_dadd_after=[j for j in dadds if j>last4[0]]
        good = all(j>last4[-1] for j in dadds[-4:])
        print('memory loop: 4 loads before the adds' if good else 'memory loop: an add waits between the loads', '| instrs', len(L))
        break
PY
rm -f /tmp/ml_$$.cubin /tmp/ml_$$.s
