#!/usr/bin/env python3
"""cilksort_trace_analyze.py TRACE.bin: the critical path of one cilksort run traced by the variant
make_cilksort_trace.py writes. Walks back from the root's end through each join's last child and
splits the path into task work (by kind) and runtime gaps: spawn -> child start and last child end
-> parent resume. Each gap is split again into the time the other lanes of the same warp kept the
iteration going (coupling: the latest end of a segment that overlaps on the same warp) and the rest
(publish / steal / resume latency)."""
import struct, sys, bisect, collections, statistics as st
raw = open(sys.argv[1], 'rb').read()
n = len(raw) // 24
a = struct.unpack('<%dQ' % (3 * n), raw[:24 * n])
T = collections.defaultdict(lambda: {'S': None, 'P': [], 'W': [], 'R': [], 'E': None, 'n': 0, 'merge': False, 'wp': None})
seg_by_warp = collections.defaultdict(list)
for i in range(n):
    tid, kind = a[3 * i] >> 32, chr(a[3 * i] & 0xff)
    t, arg, wp = a[3 * i + 1], a[3 * i + 2] >> 32, a[3 * i + 2] & 0xffffffff
    x = T[tid]
    if kind == 'S':
        x['S'], x['n'], x['merge'], x['wp'] = t, arg & 0x7fffffff, bool(arg >> 31), wp
    elif kind == 'P':
        x['P'].append((t, arg))
    elif kind in 'WR':
        x[kind].append((t, wp))
    elif kind == 'E':
        x['E'] = (t, wp)
for tid, x in T.items():
    x['P'].sort(); x['W'].sort(); x['R'].sort()
    starts = [(x['S'], x['wp'])] + x['R']
    ends = x['W'] + [x['E']]
    x['segs'] = list(zip(starts, ends))
    for (s, w), (e, _) in x['segs']:
        seg_by_warp[w].append((s, e))
for w in seg_by_warp:
    seg_by_warp[w].sort()
starts_by_warp = {w: [s for s, _ in v] for w, v in seg_by_warp.items()}

def iteration_end(w, t):
    """latest end among segments on warp w that started at or before t and end after it"""
    v = seg_by_warp[w]
    k = bisect.bisect_right(starts_by_warp[w], t)
    best = t
    for s, e in v[max(0, k - 64):k]:
        if e > best:
            best = e
    return best

t0 = min(x['S'] for x in T.values())
root = T[0]
print(f"tasks {len(T)}, events {n}, span root start -> end {(root['E'][0] - root['S']) / 1e3:.1f} us")
work = collections.Counter(); cnt = collections.Counter()
gaps = collections.defaultdict(list)
path = []

def kind_of(x, j, leaf):
    k = 'merge' if x['merge'] else 'sort'
    if leaf:
        return f"{k} leaf" if not x['merge'] or x['n'] < 100000000 else k
    return f"{k} seg{j}"

def walk(tid):
    x = T[tid]
    segs = x['segs']
    cur = x['E'][0]
    leaf = len(segs) == 1
    for j in range(len(segs) - 1, -1, -1):
        (s, w), (e, _) = segs[j]
        s_w = w
        if j == 0:
            k = kind_of(x, 0, leaf)
            work[k] += cur - s; cnt[k] += 1
            path.append((k, x['n'], cur - s))
            return s
        k = kind_of(x, j, False)
        work[k] += cur - s; cnt[k] += 1
        (ps, pw), (pe, _) = segs[j - 1]
        kids = [(t, c) for t, c in x['P'] if ps <= t <= pe]
        gate_t, gate = max(kids, key=lambda tc: T[tc[1]]['E'][0])
        g = T[gate]
        ce, cw = g['E']
        it_end = iteration_end(cw, ce)
        gaps['join coupling'].append(it_end - ce)
        gaps['join rest'].append(s - it_end)
        path.append(('join', g['n'], s - ce))
        cs = walk(gate)
        pit_end = iteration_end(pw, pe)
        gaps['spawn tail'].append(pe - gate_t)
        gaps['spawn coupling'].append(pit_end - pe)
        gaps['spawn rest'].append(cs - pit_end)
        same = 'same' if g['wp'] == pw else 'other'
        gaps['spawn rest ' + same].append(cs - pit_end)
        gaps['join rest ' + ('same' if cw == s_w else 'other')].append(s - it_end)
        path.append(('spawn', g['n'], cs - gate_t))
        cur = gate_t

walk(0)
tot_work = sum(work.values()); tot_gap = sum(sum(v) for k, v in gaps.items() if not k.endswith((" same", " other")))
span = root['E'][0] - root['S']
print(f"critical path: work {tot_work / 1e3:.1f} us, gaps {tot_gap / 1e3:.1f} us "
      f"(sum {(tot_work + tot_gap) / 1e3:.1f}, span {span / 1e3:.1f})")
for k in sorted(work, key=lambda k: -work[k]):
    print(f"  work {k:12s} {cnt[k]:4d} x  total {work[k] / 1e3:8.1f} us  mean {work[k] / cnt[k] / 1e3:7.2f}")
for k in ['spawn tail', 'spawn coupling', 'spawn rest', 'spawn rest same', 'spawn rest other', 'join coupling', 'join rest', 'join rest same', 'join rest other']:
    if not gaps[k]:
        continue
    v = sorted(gaps[k])
    print(f"  gap  {k:15s} {len(v):4d} x  total {sum(v) / 1e3:8.1f} us  med {v[len(v) // 2] / 1e3:6.2f}  "
          f"p90 {v[int(len(v) * .9)] / 1e3:6.2f}  max {v[-1] / 1e3:6.2f}")
# all leaf merges and sorts (not only the path): durations
for label, pred in [('merge leaf', lambda x: x['merge'] and len(x['segs']) == 1),
                    ('sort leaf', lambda x: not x['merge'] and len(x['segs']) == 1)]:
    d = sorted(x['E'][0] - x['S'] for x in T.values() if pred(x))
    if d:
        print(f"all {label}: {len(d)}  dur med {d[len(d) // 2] / 1e3:.1f} p90 {d[int(len(d) * .9)] / 1e3:.1f} max {d[-1] / 1e3:.1f} us")
if len(sys.argv) > 2:
    with open(sys.argv[2], 'w') as f:
        f.write('step,n,us\n')
        for k, m, d in reversed(path):
            f.write(f'{k},{m},{d / 1e3:.2f}\n')
