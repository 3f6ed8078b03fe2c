#!/usr/bin/env python3
"""docs/segmented.md's cost table from cascade-segmented runs against CUB 3.0.1 and CUB 3.5.0
(doc_examples.py checks the page's rows against what this prints): for each segment length, CUB's
time in each version, the default's (device offsets), batched_reduce's, the fastest owner's (by
median hot time over the runs), each a range over the runs, hot / cold in us, with its share of the
read ceiling (cold); then the best and the default against CUB 3.5.0's median hot time.

    python3 scripts/segmented_tables.py CUB301-RUN.json... -- CUB350-RUN.json...
"""
import math
import statistics
import sys

from results_io import load_result

args = sys.argv[1:]
split = args.index('--')
old = [r for p in args[:split] for r in load_result(p)['rows'] if r.get('kind') == 'timing']
new = [r for p in args[split + 1:] for r in load_result(p)['rows'] if r.get('kind') == 'timing']
CUB = 'cub::DeviceSegmentedReduce::Sum'


def key(r):
    return 'power law' if r['lengths'] != 'fixed' else r['segment_size']


def span(values, fmt):
    lo, hi = fmt % min(values), fmt % max(values)
    return lo if lo == hi else lo + '-' + hi


def times(rs):
    return '%s / %s' % (span([r['hot_us'] for r in rs], '%.1f'), span([r['cold_us'] for r in rs], '%.1f'))


def share(rs):
    return span([100 * r['ceiling_cold_us'] / r['cold_us'] for r in rs], '%.0f') + '%'


def ratio(values):
    def fmt(v):  # three significant digits, two decimals below 1
        if v < 1:
            return '%.2f' % v
        return '%.*f' % (max(0, 2 - math.floor(math.log10(v))), v)
    lo, hi = fmt(min(values)), fmt(max(values))
    return (lo if lo == hi else lo + '-' + hi) + 'x'


def label(n):
    return ('%dK' % (n // 1024) if n < 1 << 20 else '%dM' % (n >> 20)) if n >= 1024 and n % 1024 == 0 else str(n)


print('| segments of | CUB 3.0.1 | CUB 3.5.0 | default (device offsets) | `batched_reduce` default | best owner |'
      ' best; default / CUB 3.5.0 (hot) |')
print('|---|---|---|---|---|---|---|')
allrows = old + new
for k in sorted({key(r) for r in allrows}, key=lambda k: (isinstance(k, str), k if isinstance(k, int) else 0)):
    at = [r for r in allrows if key(r) == k]
    cub_old = [r for r in old if key(r) == k and r['name'] == CUB]
    cub_new = [r for r in new if key(r) == k and r['name'] == CUB]
    default = [r for r in at if r['name'] == 'cascade default_policy']
    batched = [r for r in at if r['name'] == 'cascade batched_reduce default_policy']
    owners = {r['name'] for r in at if r['name'].startswith('cascade segment::')}
    best = min(owners, key=lambda o: statistics.median(r['hot_us'] for r in at if r['name'] == o))
    bests = [r for r in at if r['name'] == best]
    cub_hot = statistics.median(r['hot_us'] for r in cub_new)
    cells = [times(cub_old), times(cub_new), '%s (%s)' % (times(default), share(default)),
             '%s (%s)' % (times(batched), share(batched)) if batched else '-',
             '%s (%s) (`%s`)' % (times(bests), share(bests), best.replace('cascade segment::', '')),
             '%s; %s' % (ratio([cub_hot / r['hot_us'] for r in bests]), ratio([cub_hot / r['hot_us'] for r in default]))]
    print('| %s | %s |' % (label(k) if isinstance(k, int) else k, ' | '.join(cells)))
