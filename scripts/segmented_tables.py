#!/usr/bin/env python3
"""docs/segmented.md's cost table from cascade-segmented runs against CUB 3.0.1 and CUB 3.5.0
(doc_examples.py checks the page's rows against what this prints): for each segment length, CUB's
time in each version (offsets) and CUB 3.5.0's fixed-size Sum, the default's (device offsets), the
default's with a segment_lengths hint of the size, batched_reduce's, the fastest owner's (by median
hot time over the runs), each a range over the runs, hot / cold in us, with its share of the read
ceiling (cold); then the default with the hint against CUB 3.5.0's median hot time, and
batched_reduce against CUB 3.5.0's fixed-size Sum (hot).

    python3 scripts/segmented_tables.py CUB301-RUN.json... -- CUB350-RUN.json...
"""
import math
import statistics
import sys

from results_io import load_result, rows_of

args = sys.argv[1:]
split = args.index('--')
old = [r for p in args[:split] for r in rows_of(load_result(p)) if r.get('kind') == 'timing']
new = [r for p in args[split + 1:] for r in rows_of(load_result(p)) if r.get('kind') == 'timing']
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


print('| segments of | CUB 3.0.1 | CUB 3.5.0 | CUB 3.5.0 fixed size | default (device offsets) | default, hint |'
      ' `batched_reduce` default | best owner | hint / CUB 3.5.0; batched / fixed (hot) |')
print('|---|---|---|---|---|---|---|---|---|')
allrows = old + new
FIXED = CUB + ' (fixed size)'
HINT = 'cascade default_policy, segment_lengths::about(size)'


def cell(rs):
    return '%s (%s)' % (times(rs), share(rs)) if rs else '-'


for k in sorted({key(r) for r in allrows}, key=lambda k: (isinstance(k, str), k if isinstance(k, int) else 0)):
    at = [r for r in allrows if key(r) == k]
    cub_old = [r for r in old if key(r) == k and r['name'] == CUB]
    cub_new = [r for r in new if key(r) == k and r['name'] == CUB]
    fixed = [r for r in new if key(r) == k and r['name'] == FIXED]
    default = [r for r in at if r['name'] == 'cascade default_policy']
    hinted = [r for r in at if r['name'] == HINT]
    batched = [r for r in at if r['name'] == 'cascade batched_reduce default_policy']
    owners = {r['name'] for r in at if r['name'].startswith('cascade segment::')}
    best = min(sorted(owners), key=lambda o: statistics.median(r["hot_us"] for r in at if r["name"] == o))
    bests = [r for r in at if r['name'] == best]
    cub_hot = statistics.median(r['hot_us'] for r in cub_new)
    ratios = [ratio([cub_hot / r['hot_us'] for r in (hinted or default)])]
    if fixed and batched:
        fixed_hot = statistics.median(r['hot_us'] for r in fixed)
        ratios.append(ratio([fixed_hot / r['hot_us'] for r in batched]))
    cells = [times(cub_old), times(cub_new), times(fixed) if fixed else '-', cell(default), cell(hinted), cell(batched),
             '%s (%s) (`%s`)' % (times(bests), share(bests), best.replace('cascade segment::', '')), '; '.join(ratios)]
    print('| %s | %s |' % (label(k) if isinstance(k, int) else k, ' | '.join(cells)))
