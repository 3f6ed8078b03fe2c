#!/usr/bin/env python3
"""docs/distributed.md's weak- and strong-scaling tables from a cascade-distributed run on 1, 2 and
4 GPUs (doc_examples.py checks the page's rows against what this prints). Weak scaling: each
collective's GPU time on 1 GPU over its time on N at the same floats per GPU, and all_reduce's share
of the call, (call - local) / call; strong scaling: all_reduce's time for a total split across GPUs.
A run with collective::nvlink rows gets one table instead: what nvlink and all_reduce add to the
local reduce on the run's most ranks, their weak-scaling efficiency, and NCCL's latency alone.

    python3 scripts/distributed_tables.py RUN.json
"""
import sys

from results_io import load_result

t = {(r['name'], r['ranks'], r['log2_items_per_rank']): r['gpu_us'] for r in load_result(sys.argv[1])['rows']
     if r.get('kind') == 'timing' and r.get('family') == 'distributed'}
sizes = sorted({k[2] for k in t if k[1] == 1})
if any(k[0] == 'nvlink' for k in t):
    # A run with collective::nvlink: per size, the local reduce, what each path adds to it on the most
    # ranks of the run (GPU time) and its weak-scaling efficiency, and NCCL's all-reduce of one float.
    n = max(k[1] for k in t)
    print('| floats per GPU | local reduce | nvlink: added | efficiency | all_reduce: added | efficiency '
          '| NCCL all-reduce of 1 float |')
    print('| --- | ---: | ---: | ---: | ---: | ---: | ---: |')
    for L in sizes:
        local = t[('local', n, L)]
        cells = []
        for c in ('nvlink', 'all_reduce'):
            cells += ['%.1f us' % (t[(c, n, L)] - local), '%.1f%%' % (100 * t[(c, 1, L)] / t[(c, n, L)])]
        print('| 2^%d | %.1f us | %s | %.1f us |' % (L, local, ' | '.join(cells), t[('nccl all_reduce', n, L)]))
    sys.exit(0)
collectives = ('all_reduce', 'all_gather', 'custom op')
print('| floats per GPU | 1 GPU (local reduce) | 2 GPUs: efficiency | share | 4 GPUs: efficiency | share |')
print('| --- | ---: | --- | ---: | --- | ---: |')
for L in sizes:
    cells = []
    for n in (2, 4):
        eff = ' / '.join('%.1f' % (100 * t[(c, 1, L)] / t[(c, n, L)]) for c in collectives) + '%'
        if L == 30:
            eff = '**' + eff + '**'
        share = 100 * (t[('all_reduce', n, L)] - t[('local', n, L)]) / t[('all_reduce', n, L)]
        cells += [eff, '%.1f%%' % share]
    size = '**2^%d**' % L if L == 30 else '2^%d' % L
    print('| %s | %.1f us | %s |' % (size, t[('local', 1, L)], ' | '.join(cells)))
print()
print('| total floats | 1 GPU | 2 GPUs | 4 GPUs |')
print('| --- | ---: | ---: | ---: |')
for L in sizes:
    if (('all_reduce', 2, L - 1) in t) and (('all_reduce', 4, L - 2) in t):
        one = t[('all_reduce', 1, L)]
        two, four = t[('all_reduce', 2, L - 1)], t[('all_reduce', 4, L - 2)]
        print('| 2^%d | %.1f us | %.1f us (%.2fx) | %.1f us (%.2fx) |' % (L, one, two, one / two, four, one / four))
