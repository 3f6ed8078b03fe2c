#!/usr/bin/env python3
"""The README's table of headline figures, computed from the committed results files it names, so
that the README and the pages it summarises cannot disagree (test/checks/doc_examples.py checks that
the README's block between `<!-- generated: scripts/headline.py -->` and `<!-- /generated -->` is
exactly what this prints).

    python3 scripts/headline.py [source root]
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_io import load_result, rows_of  # noqa: E402

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
RIVALS = 'bench/results/rivals-h200-2026-12-02-cccl3.5.0.json.xz'  # reduce (its transform rows unused here)
RIVALS_ARG = 'bench/results/rivals-arg-h200-2026-12-02-cccl3.5.0.json.xz'
SEGMENTED = ['bench/results/segmented-2026-12-02/segmented-newest-753bc45.json.xz']
DISTRIBUTED = 'bench/results/distributed-h200x4-2026-11-26.json'


def load(path):
    return load_result(os.path.join(root, path))


def span(values, fmt='%.2f', unit='x'):
    lo, hi = fmt % min(values), fmt % max(values)
    return (lo if lo == hi else lo + '-' + hi) + unit


def log2(n):
    return n.bit_length() - 1


def cascade_rows(path):
    return [r for r in rows_of(load(path)) if r.get('kind') == 'timing' and r['library'] == 'cascade']


reduce = [r for r in cascade_rows(RIVALS) if r['family'] == 'reduce' and r['mode'] == 'deterministic']
small = [r['ratio_hot'] for r in reduce if 14 <= log2(r['n']) <= 22]
large = [r['ratio_hot'] for r in reduce if log2(r['n']) >= 24]
arg = [100 * r['ceiling_hot_us'] / r['hot_us'] for r in cascade_rows(RIVALS_ARG)
       if r['family'] in ('argmin', 'argmax') and log2(r['n']) >= 28]

# segmented sums against CUB 3.5.0, by the default, segments of 1-64 items: CUB's time / cascade's,
# over every length and both rounds
times = defaultdict(list)
for path in SEGMENTED:
    for r in rows_of(load(path)):
        if r.get('kind') == 'timing' and r.get('lengths') == 'fixed' and 1 <= r['segment_size'] <= 64:
            times[(path, r['segment_size'], r['name'])].append(r['hot_us'])
ratios = defaultdict(list)
for (path, size, name), t in times.items():
    if name == 'cascade default_policy':
        ratios[size].append(times[(path, size, 'cub::DeviceSegmentedReduce::Sum')][0] / t[0])
segmented = [x for v in ratios.values() for x in v]

dist = {(r['name'], r['ranks']): r['gpu_us'] for r in load(DISTRIBUTED)['rows']
        if r.get('kind') == 'timing' and r['log2_items_per_rank'] == 30}
weak = 100 * dist[('local', 1)] / dist[('all_reduce', 4)]

print('| on an H200, hot GPU time | cascade | against |')
print('|---|---|---|')
print('| `reduce`, `default_policy`, 12 types and ops, 2^14-2^22 items | %s as fast | CUB 3.5.0 `DeviceReduce` |' % span(small))
print('| the same, 2^24-2^30 items | %s | the same |' % span(large))
print('| `argmin`, `argmax`, 5 types, 2^28-2^30 items | %s of the read bandwidth | a streaming read |'
      % span(arg, '%.0f', '%'))
print('| `segmented_reduce`, 2^26 floats in segments of 1-64 | %s as fast | CUB 3.5.0 `DeviceSegmentedReduce` |'
      % span(segmented, '%.0f'))
print('| `reduce` across 4 GPUs, 2^30 floats each | %.0f%% weak-scaling efficiency | one GPU |' % weak)
