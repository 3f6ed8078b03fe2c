#!/usr/bin/env python3
"""docs/strategies.md's table of finishing strategies from a cascade-finishes run: each finish's hot /
cold time in us at each size, and CUB's from the same run (doc_examples.py checks the page's rows
against what this prints). Reads either layout: cascade-finishes on NVBench (bench/support/contest.cu:
a row per contender, CUB's its own) or the older program's (CUB's times in every finish's row).

    python3 scripts/finishes_tables.py RUN.json
"""
import sys

from results_io import load_result, rows_of

rows = [r for r in rows_of(load_result(sys.argv[1])) if r.get('kind', 'timing') == 'timing']
if not all('cub_hot_us' in r for r in rows):
    # NVBench layout: CUB's row beside the finishes' at each size; the older layout's fields from it
    cub_at = {r['n']: r for r in rows if r['library'] == 'cub'}
    rows = [dict(r, cub_hot_us=cub_at[r['n']]['hot_us'], cub_cold_us=cub_at[r['n']]['cold_us'])
            for r in rows if 'finish' in r]
sizes = sorted({r['n'] for r in rows})
finishes = []
for r in rows:
    if r['finish'] not in finishes:
        finishes.append(r['finish'])
at = {(r['finish'], r['n']): r for r in rows}
print('| finish | ' + ' | '.join('2^%d' % (n.bit_length() - 1) for n in sizes) + ' |')
print('|---|' + '---:|' * len(sizes))
for f in finishes:
    print('| `%s` | %s |' % (f, ' | '.join('%.1f / %.1f' % (at[(f, n)]['hot_us'], at[(f, n)]['cold_us']) for n in sizes)))
# CUB: its median over the runs beside each finish (one per finish and size)
cub = []
for n in sizes:
    hot = sorted(at[(f, n)]['cub_hot_us'] for f in finishes)
    cold = sorted(at[(f, n)]['cub_cold_us'] for f in finishes)
    cub.append('%.1f / %.1f' % (hot[len(hot) // 2], cold[len(cold) // 2]))
print('| `cub::DeviceReduce` | %s |' % ' | '.join(cub))
