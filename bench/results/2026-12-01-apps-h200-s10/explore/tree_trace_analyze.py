#!/usr/bin/env python3
"""Per-node timing of the binary tree (the variant make_binary_tree_trace.py writes): where the drain's time goes.
usage: tree_trace_analyze.py TRACE.bin DEPTH [TOP_LEVELS_CSV]
Record per node: entry ns (inner nodes), work start ns, work end ns, sm<<8|warp."""
import struct, sys, statistics as st
path, D = sys.argv[1], int(sys.argv[2])
N = (2 << D) - 1
raw = open(path, 'rb').read()
a = struct.unpack('<%dQ' % (4 * N), raw[:32 * N])
ent, t0, t1, wp = a[0::4], a[1::4], a[2::4], a[3::4]
base = min(t0)
end = max(t1)
print(f"nodes {N}, span {(end - base) / 1e6:.3f} ms (first work start to last work end)")
first_leaf = (1 << D) - 1
last_leaf_end = max(t1[first_leaf:])
print(f"last leaf ends at {(last_leaf_end - base) / 1e6:.3f} ms; root ends at {(t1[0] - base) / 1e6:.3f}; "
      f"after the last leaf {(t1[0] - last_leaf_end) / 1e3:.0f} us")
print("level  count  start[min med max] ms   end[med max] ms   dur med/max us   ready->start delay med/p90/max us")
for lv in range(D + 1):
    lo, hi = (1 << lv) - 1, (2 << lv) - 1
    s = [t0[i] - base for i in range(lo, hi)]
    e = [t1[i] - base for i in range(lo, hi)]
    d = [t1[i] - t0[i] for i in range(lo, hi)]
    if lv < D:
        dl = sorted(t0[i] - max(t1[2 * i + 1], t1[2 * i + 2]) for i in range(lo, hi))
        dls = f"{dl[len(dl) // 2] / 1e3:8.1f} {dl[int(len(dl) * .9)] / 1e3:8.1f} {dl[-1] / 1e3:8.1f}"
    else:
        dls = ""
    ss = sorted(s)
    print(f"{lv:5d} {hi - lo:7d}  {ss[0] / 1e6:7.3f} {ss[len(ss) // 2] / 1e6:7.3f} {ss[-1] / 1e6:7.3f}   "
          f"{st.median(e) / 1e6:7.3f} {max(e) / 1e6:7.3f}   {st.median(d) / 1e3:7.1f} {max(d) / 1e3:7.1f}   {dls}")
print("critical path (root down, following the child that ended last):")
print("level node      start_ms  dur_us  delay_us  warp(sm:slot)  same_warp_as_last_child")
i, lv = 0, 0
while True:
    if lv < D:
        c = 2 * i + 1 if t1[2 * i + 1] >= t1[2 * i + 2] else 2 * i + 2
        delay = (t0[i] - t1[c]) / 1e3
        same = wp[i] == wp[c]
    else:
        c, delay, same = None, 0.0, ''
    print(f"{lv:5d} {i:9d} {(t0[i] - base) / 1e6:9.3f} {(t1[i] - t0[i]) / 1e3:7.1f} {delay:9.1f}  "
          f"{wp[i] >> 8:3d}:{wp[i] & 255:<3d}  {same}")
    if c is None:
        break
    i, lv = c, lv + 1
# work done over time: fraction of node-work intervals complete
ends = sorted(t1)
for f in (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 0.999):
    print(f"{f:.3f} of the nodes' work ended by {(ends[int(f * N) - 1] - base) / 1e6:.3f} ms")
if len(sys.argv) > 3:
    with open(sys.argv[3], 'w') as o:
        o.write("node,entry_ns,start_ns,end_ns,sm,warp\n")
        for i in range(min(N, (1 << 16) - 1)):
            o.write(f"{i},{ent[i] - base if ent[i] else -1},{t0[i] - base},{t1[i] - base},{wp[i] >> 8},{wp[i] & 255}\n")
