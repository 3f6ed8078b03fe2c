#!/usr/bin/env python3
"""Two builds of cascade-rivals run in turn on one GPU (each unit: old, new, old, new, ...): the
median over rounds of each build's hot and cold GPU time for every cascade call, and new / old.
Reads the runs' JSON files, named <build>-<unit>-<round>.json, or one merged file of them
(--merged, each row tagged with its build and round); --merge OUT writes that file.
Usage: compare_builds.py [--merge OUT] FILE... | compare_builds.py --merged FILE"""
import collections, json, lzma, os, statistics, sys

args = sys.argv[1:]
rows = []
if args and args[0] == '--merged':
    opener = lzma.open if args[1].endswith('.xz') else open
    rows = json.load(opener(args[1], 'rt'))['rows']
else:
    out = None
    if args and args[0] == '--merge':
        out, args = args[1], args[2:]
    meta = None
    for f in args:
        build, _, rest = os.path.basename(f).partition('-')
        run = json.load(open(f))
        meta = meta or {k: v for k, v in run.items() if k != 'rows'}
        for r in run['rows']:
            r['build'], r['round'] = build, int(rest.rsplit('-', 1)[1].split('.')[0])
            rows.append(r)
    if out:
        meta['rows'] = rows
        with (lzma.open if out.endswith('.xz') else open)(out, 'wt') as o:
            json.dump(meta, o)
times = collections.defaultdict(lambda: collections.defaultdict(list))
for r in rows:
    if r.get('kind') != 'timing' or r['library'] != 'cascade' or r['mode'] not in ('deterministic',):
        continue
    times[(r['family'], r['config'], r['n'])][r['build']].append((r['hot_us'], r['cold_us']))
print('%-7s %-15s %5s | %9s %9s %7s | %9s %9s %7s' % ('call', 'config', 'n', 'old hot', 'new hot', 'new/old',
                                                     'old cold', 'new cold', 'new/old'))
for (family, config, n), b in sorted(times.items()):
    if 'old' not in b or 'new' not in b:
        continue
    oh, nh = (statistics.median(t[0] for t in b[k]) for k in ('old', 'new'))
    oc, nc = (statistics.median(t[1] for t in b[k]) for k in ('old', 'new'))
    print('%-7s %-15s  2^%d | %9.2f %9.2f %7.3f | %9.2f %9.2f %7.3f' % (family, config, n.bit_length() - 1, oh, nh,
                                                                       nh / oh, oc, nc, nc / oc))
