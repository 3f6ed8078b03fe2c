#!/usr/bin/env python3
"""Whether an sm_90 tuning table (default include/cascade/tuning/sm90_h200.cuh) holds on the GPU a cascade-tune
results file was measured on: for each tuned configuration and size, the score (sqrt(hot x cold)) of
the policy the table names against the best table-eligible candidate's, and every size where the
table's loses more than 3%.

    python3 scripts/table_check.py bench/results/rivals-2026-11-24/tune-h100.json.xz [--tuned tune-h100.txt]
                                      [--table include/cascade/tuning/sm90_h100.cuh]

With --tuned (the text cascade-tune printed for that file), the table's policy is also set against
the policy the tuner's own ranges pick at each size (at most 3 policies per entry, as the table's
are): the issue-18 question, whether the sm_90 table loses more than 3% against what the tuner picks
on this GPU.
"""
import re, math, sys
from collections import defaultdict
import os
from results_io import load_result, open_result, sweep_rows
table_path = os.path.join(os.path.dirname(__file__), '..', 'include/cascade/tuning/sm90_h200.cuh')
if '--table' in sys.argv:
    table_path = sys.argv[sys.argv.index('--table') + 1]
src=open(table_path).read()
tables={}
# entries another class's table serves (struct table<sm90_h100, 4, op_kind::min_max> : table<sm90_h200, 4, ...> {};)
for m in re.finditer(r'struct table<\w+, (\d+), op_kind::(\w+)> : table<(\w+), \d+, op_kind::\w+> \{\};', src):
    other = open(os.path.join(os.path.dirname(table_path), m.group(3) + '.cuh')).read()
    found = re.search(r'struct table<%s, %s, op_kind::%s> \{\s*using type = ranges<(.*?)>;\s*\};' % (m.group(3), m.group(1), m.group(2)),
                      other, re.S)
    if found is None:  # an entry this script does not score (arg, served by a table of its own kind)
        continue
    body = found.group(1)
    tables[(int(m.group(1)), m.group(2))] = [(int(r.group(1)), f"<{r.group(2)}, {r.group(3)}, {r.group(4)}, {r.group(5)}>")
                                             for r in re.finditer(r'range<(-?\d+), policy<(\d+), (\d+), tree::(\w+), finish::(\w+)>>', body)]
# entries keyed by a GPU class (table<sm90_h200, 4, ...>) or, in tables before 2026-11-24, by the architecture
for m in re.finditer(r'struct table<(?:90|[a-z]\w*), (\d+), op_kind::(\w+)> \{\s*using type = ranges<(.*?)>;\s*\};', src, re.S):
    b,k,body=int(m.group(1)),m.group(2),m.group(3)
    rs=[]
    for r in re.finditer(r'range<(-?\d+), policy<(\d+), (\d+), tree::(\w+), finish::(\w+)>>', body):
        rs.append((int(r.group(1)), f"<{r.group(2)}, {r.group(3)}, {r.group(4)}, {r.group(5)}>"))
    tables[(b,k)]=rs
bytes_of={'int8':1,'half':2,'float':4,'double':8}
def pick(rs,n):
    for mx,name in rs:
        if mx<0 or n<=mx: return name
tuned = {}
if '--tuned' in sys.argv:
    text = open_result(sys.argv[sys.argv.index('--tuned') + 1]).read()
    for m in re.finditer(r"^(\S+): the table's ranges.*?\n((?:  n in .*\n)+)", text, re.M):
        tuned[m.group(1)] = [(int(r.group(1)), -1 if r.group(2) == 'inf' else int(r.group(2)),
                              f"<{r.group(3)}, {r.group(4)}, {r.group(5)}, {r.group(6)}>")
                             for r in re.finditer(r"n in \[(\d+), (\w+)\]: policy<(\d+), (\d+), tree::(\w+), finish::(\w+)>",
                                                  m.group(2))]
d=load_result(sys.argv[1])
g=defaultdict(list)
for r in sweep_rows(d): g[(r['config'],r['n'])].append(r)
worst=defaultdict(list)
for (c,n),rs in sorted(g.items(), key=lambda x:(x[0][0],x[0][1])):
    item,op=c.split('-'); key=(bytes_of[item],'sum' if op=='plus' else 'min_max')
    if key not in tables: continue
    name=pick(tables[key],n)
    el=[r for r in rs if r['table_eligible'] and r['agrees'] and r['hot_us'] and r['cold_us']]
    sc=lambda r: math.sqrt(r['hot_us']*r['cold_us'])
    best=min(el,key=sc)
    t=[r for r in el if r['name']==name]
    if not t: print('missing',c,n,name); continue
    loss=sc(t[0])/sc(best)-1
    if c in tuned:
        tuned_name=[nm for lo,hi,nm in tuned[c] if n>=lo and (hi<0 or n<=hi)][0]
        tp=[r for r in el if r["name"]==tuned_name]
        best=tp[0]
        loss=sc(t[0])/sc(best)-1
    worst[c].append((loss,n,name,best['name']))
for c,v in worst.items():
    over=[x for x in v if x[0]>0.03]
    mx=max(v)
    what = "the tuner's pick" if c in tuned else "this GPU's best"
    print(f"{c:14s} sizes {len(v)}: table within 3% of {what} at {len(v)-len(over)}; worst {mx[0]*100:.1f}% at n={mx[1]} ({mx[2]} vs {mx[3]})")
    for x in over: print(f"     {x[1]:>11d}: +{x[0]*100:.1f}%  table {x[2]}  best {x[3]}")
