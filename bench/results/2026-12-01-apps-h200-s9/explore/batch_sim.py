# batch_sim.py D W: one warp's batches on a full binary tree of height D (bench/NOTES.md step 19).
# A leaf or resumed node costs W, an inner node's entry (spawn, suspend) 1; a batch costs its
# largest task + 2. Policies: cur = the paper's (continuations kept with the children, the rest
# topped up from the deque), sep = continuations in a queue of their own, batch from the
# fuller, sepR = continuations wait until 32 are ready (or nothing else is left).
# Prints (time, lane efficiency = heavy work / (32 x time), batches).
import sys
W = float(sys.argv[2]) if len(sys.argv)>2 else 100.0
D = int(sys.argv[1]) if len(sys.argv)>1 else 14
def cost(t):
    h,k = t
    if k=='E' and h>0: return 1.0
    return W
def run(policy):
    # deque: list of published tasks; bottom = end
    deques = {'E':[], 'R':[]}
    pending = {}
    nid = [0]
    def new(h,k,parent):
        nid[0]+=1; return (nid[0],h,k,parent)
    batch=[new(D,'E',None)]
    time=0; heavy=0; nb=0; lanes=0
    while True:
        if not batch: break
        time += max(cost((t[1],t[2])) for t in batch) + 2
        nb+=1
        heavy += sum(W for t in batch if cost((t[1],t[2]))==W)
        children=[]; conts=[]
        for t in batch:
            i,h,k,p=t
            if k=='E' and h>0:
                children.append(new(h-1,'E',t)); children.append(new(h-1,'E',t)); pending[i]=2
            else:
                if p is not None:
                    pending[p[0]]-=1
                    if pending[p[0]]==0: conts.append((p[0],p[1],'R',p[3]))
        if policy=='cur':
            newt = children+conts  # continuations newest
            keep = newt[-32:]; deques['E'].extend(newt[:-32] if len(newt)>32 else [])
            batch=keep
            if len(batch)<32:
                n=32-len(batch); take=deques['E'][-n:] if n else []
                del deques['E'][len(deques['E'])-len(take):]
                batch=take+batch  # order doesnt matter
        else:
            # separate queues, homogeneous batches; keep from fullest new
            qs={'E':children,'R':conts}
            qk = 'E' if len(children)>=len(conts) else 'R'
            if policy=='sepR' and len(conts)>0: qk = 'R' if len(conts)+len(deques['R'])>=32 else ('E' if children or deques['E'] else 'R')
            for q in 'ER':
                if q!=qk: deques[q].extend(qs[q])
            newt=qs[qk]; batch=newt[-32:]; deques[qk].extend(newt[:-32] if len(newt)>32 else [])
            if len(batch)<32:
                q=qk
                if not batch:
                    q = qk if deques[qk] else ('R' if qk=='E' else 'E')
                n=32-len(batch); d=deques[q]; take=d[-n:]; del d[len(d)-len(take):]
                batch=take+batch
    return time, heavy/(32*time), nb
for p in ['cur','sep','sepR']:
    print(p, run(p))
