#!/usr/bin/env python3
"""Two builds of a bench program (cascade-rivals, cascade-bench or cascade-segmented) run in turn on
one GPU (old, new, old, new, ...): the median over rounds of each build's hot and cold GPU time for
every cascade call, new / old, and the median of those ratios.
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


def cascade_call(r):
    """(call, config, n) of one of cascade's timed rows, or None. Reads the rows of cascade-rivals
    (family, config, library, mode), cascade-bench (config, name, group) and cascade-segmented
    (family segmented, name, lengths)."""
    if r.get('family') == 'segmented':
        if not r['name'].startswith('cascade'):
            return None
        shape = '%s-%s' % (r['lengths'], r.get('segment_size', r.get('mean_length')))
        return (r['name'].replace('cascade ', ''), shape, r['items'])
    if 'library' in r:
        if r.get('kind') != 'timing' or r['library'] != 'cascade' or r['mode'] not in ('deterministic',):
            return None
        return (r['family'], r['config'], r['n'])
    if 'group' in r:
        if r['group'] in ('cub', 'thrust', 'ceiling') or 'hot_us' not in r:
            return None
        return (r['name'], r['config'], r['n'])
    return None


for r in rows:
    key = cascade_call(r)
    if key:
        times[key][r['build']].append((r['hot_us'], r['cold_us']))
print('%-36s %-16s %5s | %9s %9s %7s | %9s %9s %7s' % ('call', 'config', 'n', 'old hot', 'new hot', 'new/old',
                                                       'old cold', 'new cold', 'new/old'))
ratios_hot, ratios_cold = [], []
for (call, config, n), b in sorted(times.items()):
    if 'old' not in b or 'new' not in b:
        continue
    oh, nh = (statistics.median(t[0] for t in b[k]) for k in ('old', 'new'))
    oc, nc = (statistics.median(t[1] for t in b[k]) for k in ('old', 'new'))
    ratios_hot.append(nh / oh)
    ratios_cold.append(nc / oc)
    print('%-36s %-16s  2^%d | %9.2f %9.2f %7.3f | %9.2f %9.2f %7.3f' % (call[:36], config, n.bit_length() - 1, oh, nh,
                                                                         nh / oh, oc, nc, nc / oc))
if ratios_hot:
    q = lambda v, f: sorted(v)[min(len(v) - 1, int(f * len(v)))]
    print('%d calls: median new/old %.3f hot, %.3f cold; middle 90%% %.3f-%.3f hot, %.3f-%.3f cold' % (
        len(ratios_hot), statistics.median(ratios_hot), statistics.median(ratios_cold), q(ratios_hot, 0.05),
        q(ratios_hot, 0.95), q(ratios_cold, 0.05), q(ratios_cold, 0.95)))
