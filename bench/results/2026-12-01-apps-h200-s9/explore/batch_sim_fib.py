# batch_sim_fib.py N: one warp on fib(N) under the policies of batch_sim.py: batches, their
# fill, and how many publishes and deque pops each needs; sepRbuf = sepR with the waiting
# continuations in a private buffer (no deque operations for them), the landed design.
import sys
def run(policy, N):
    deques={'E':[], 'R':[]}; pending={}; nid=[0]
    def new(n,k,p): nid[0]+=1; return (nid[0],n,k,p)
    batch=[new(N,'E',None)]; nb=0; pub=0; pops=0; lanes=0; maxlive=0
    while batch:
        nb+=1; lanes+=len(batch)
        ch=[]; co=[]
        for t in batch:
            i,n,k,p=t
            if k=='E' and n>=2:
                ch+= [new(n-1,'E',t), new(n-2,'E',t)]; pending[i]=2
            else:
                if p is not None:
                    pending[p[0]]-=1
                    if pending[p[0]]==0: co.append((p[0],p[1],'R',p[3]))
        if policy=='cur':
            newt=ch+co; batch=newt[-32:]; rest=newt[:-32] if len(newt)>32 else []
            if rest: pub+=1; deques['E']+=rest
            if len(batch)<32 and deques['E']:
                n=32-len(batch); take=deques['E'][-n:]; del deques['E'][len(deques['E'])-len(take):]; batch=take+batch; pops+=1
        else:
            ready=len(co)+len(deques['R'])
            qk='R' if ready>=32 else ('E' if ch or deques['E'] else 'R')
            qs={'E':ch,'R':co}
            for q in 'ER':
                if q!=qk and qs[q]:
                    deques[q]+=qs[q]; 
                    if q=='E' or policy=='sepR': pub+=1
            newt=qs[qk]; batch=newt[-32:]; rest=newt[:-32] if len(newt)>32 else []
            if rest: pub+=1; deques[qk]+=rest
            if len(batch)<32:
                q=qk if (batch or deques[qk]) else ('R' if qk=='E' else 'E')
                if deques[q]:
                    n=32-len(batch); d=deques[q]; take=d[-n:]; del d[len(d)-len(take):]; batch=take+batch
                    if q=='E' or policy=='sepR': pops+=1
        maxlive=max(maxlive,len(pending))
    return dict(batches=nb, fill=lanes/nb/32, publishes=pub, pops=pops)
N=int(sys.argv[1])
for p in ['cur','sepR','sepRbuf']: print(p, run(p,N))
