#!/usr/bin/env python3
"""docs/reproducible.md's table of the exact sums' defaults: hot GPU time of cascade's plus,
exact_plus and reproducible_plus (default_policy) and their ratios to each other and to CUB 3.5.0's
gpu_to_gpu and run_to_run sums, per item type and size, from a cascade-rivals-newest run of the exact
family (doc_examples.py checks the page's rows against what this prints).

    python3 scripts/exact_tables.py RUN.json[.xz]
"""
import sys

from results_io import load_result

rows = [r for r in load_result(sys.argv[1])['rows'] if r.get('kind') == 'timing' and r['family'] == 'exact']
hot = {(r['item'], r['n'], r['library'], r['mode']): r['hot_us'] for r in rows}
print('| items | n | cascade plus | exact_plus | reproducible_plus | exact / plus | reproducible / plus |'
      ' gpu_to_gpu / reproducible | CUB Sum / reproducible |')
print('|---|---|---|---|---|---|---|---|---|')
for item in ('float', 'double'):
    for n in sorted({k[1] for k in hot if k[0] == item}):
        plus = hot[(item, n, 'cascade', 'deterministic')]
        exact = hot[(item, n, 'cascade', 'exact')]
        repro = hot[(item, n, 'cascade', 'reproducible')]
        g2g = hot[(item, n, 'cub', 'gpu_to_gpu (env)')]
        cub = hot[(item, n, 'cub', 'run_to_run (two-phase)')]
        print('| %s | 2^%d | %.1f | %.1f | %.1f | %.2fx | %.2fx | %.2fx | %.2fx |' % (
            item, n.bit_length() - 1, plus, exact, repro, exact / plus, repro / plus, g2g / repro, cub / repro))
