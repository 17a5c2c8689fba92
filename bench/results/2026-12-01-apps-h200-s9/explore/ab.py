import re,statistics as st,collections,sys
d=collections.defaultdict(list); cur=None; order=[]
for l in open(sys.argv[1]):
    if l.startswith('=='):
        p=l.split(); cur=(p[1],' '.join(p[2:]))
        if cur[1] not in order: order.append(cur[1])
    elif ',gtap' in l and l.count(',')>10:
        f=l.strip().split(','); d[cur].append(float(f[9]))
        if ',pass,' not in l: print('FAIL',cur,l[:200])
vs=sorted(set(k[0] for k in d))
for o in order:
    m=[st.median(d[(v,o)]) for v in vs]
    print(f'{o:45s}', ' '.join(f'{v}:{x:9.3f}' for v,x in zip(vs,m)), f'ratio {m[-1]/m[0]:.3f}', [round(x,3) for x in d[(vs[-1],o)]])
