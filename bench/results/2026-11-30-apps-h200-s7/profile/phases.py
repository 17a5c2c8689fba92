"""phases.py CSV: a profile (task_execution_intervals.csv) of a build that records two
intervals per scheduler iteration (profile_phases.patch): step 3, the tasks (tasks | spawns
<< 8), and steps 4-5, completion and publish (tasks | 1 << 30). Prints both phases' duration
distributions, the task phase by spawn count, and each warp's first iteration."""
import csv, collections, sys
rows=[]
with open(sys.argv[1]) as f:
    r=csv.reader(f); next(r)
    for x in r: rows.append(tuple(int(v) for v in x[:4]))
t0=min(x[1] for x in rows)
print("intervals", len(rows), "span us", (max(x[2] for x in rows)-t0)/1e3)
run=[x for x in rows if not (x[3]>>30)&1]
post=[x for x in rows if (x[3]>>30)&1]
def stats(name, xs):
    if not xs:
        return
    d=sorted((e-s)/1e3 for w,s,e,t in xs)
    tot=sum(d)
    print("%-10s n %6d  median %.2f  90%% %.2f  99%% %.2f  max %.1f  total %.0f us"%(name,len(d),d[len(d)//2],d[int(.9*len(d))],d[int(.99*len(d))],d[-1],tot))
stats("run", run); stats("complete+publish", post)
leaf=[x for x in run if ((x[3]>>8)&0xffff)==0]
spawn=[x for x in run if ((x[3]>>8)&0xffff)>0]
stats("run leaf", leaf); stats("run spawn", spawn)
# spawn cost: duration vs spawns
b=collections.defaultdict(list)
for w,s,e,t in spawn:
    ns=(t>>8)&0xffff
    b[min(ns//64,8)].append((e-s)/1e3)
for k in sorted(b):
    v=sorted(b[k]); print("spawns %3d-%3d: n %5d median %.2f us 90%% %.2f"%(k*64,k*64+63,len(v),v[len(v)//2],v[int(.9*len(v))]))
# first iteration of each warp
first={}
for x in sorted(run,key=lambda x:x[1]):
    if x[0] not in first: first[x[0]]=x
fl=[x for x in first.values()]
stats("first run", fl)
fls=sorted(fl,key=lambda x:x[1])
for w,s,e,t in fls[:12]:
    print("  w %5d at %6.1f us run %6.1f us tasks %d spawns %d"%(w,(s-t0)/1e3,(e-s)/1e3,t&0xff,(t>>8)&0xffff))
# long runs
lr=sorted([x for x in run if x[2]-x[1]>50000],key=lambda x:x[1])
print("runs > 50us:", len(lr), " of which leaf", sum(1 for x in lr if ((x[3]>>8)&0xffff)==0))
for w,s,e,t in lr[:10]:
    print("  w %5d at %6.1f us run %6.1f us tasks %d spawns %d"%(w,(s-t0)/1e3,(e-s)/1e3,t&0xff,(t>>8)&0xffff))
