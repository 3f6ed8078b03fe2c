#!/usr/bin/env python3
"""docs/reproducible.md's table of the exact sums' defaults: hot GPU time of cascade's plus,
exact_plus and reproducible_plus (default_policy) and their ratios to each other and to CUB 3.5.0's
gpu_to_gpu and run_to_run sums, per item type and size, from a cascade-rivals-newest run of the exact
family (doc_examples.py checks the page's rows against what this prints).

    python3 scripts/exact_tables.py RUN.json[.xz]
    python3 scripts/exact_tables.py RUN.json[.xz] --reproducible   # reproducible_plus against CUB, hot / cold
    python3 scripts/exact_tables.py RUN.json[.xz] --exact          # exact_plus and its best fixed shape
"""
import sys

from results_io import load_result, rows_of

rows = [r for r in rows_of(load_result(sys.argv[1])) if r.get('kind') == 'timing' and r['family'] == 'exact']
if '--reproducible' in sys.argv or '--exact' in sys.argv:
    # An --arg-shapes run: the defaults (name has default_policy) and every fixed shape, hot / cold in us.
    at = {}
    for r in rows:
        shape = r['name'][r['name'].index('(') + 1:r['name'].rindex(', ')] if r['library'] == 'cascade' else ''
        at[r['item'], r['n'], r['library'], r['mode'], shape] = r

    def pair(r):
        return '%.1f / %.1f' % (r['hot_us'], r['cold_us'])

    exact = '--exact' in sys.argv
    head = ['items', 'n', 'CUB Sum (run_to_run)', 'CUB gpu_to_gpu', 'cascade plus']
    head += (['exact_plus default', 'reproducible_plus default', 'exact best fixed shape', 'read ceiling', 'exact / plus',
              'gpu_to_gpu / exact', 'exact % of ceiling (cold)'] if exact else
             ['reproducible_plus default', 'exact_plus default', 'read ceiling', 'gpu_to_gpu / reproducible (hot)',
              'CUB Sum / reproducible (hot)', 'reproducible % of ceiling (cold)'])
    print('| ' + ' | '.join(head) + ' |')
    print('|---' * len(head) + '|')
    for item in ('float', 'double'):
        for n in sorted({k[1] for k in at if k[0] == item}):
            cub, g2g = at[item, n, 'cub', 'run_to_run (two-phase)', ''], at[item, n, 'cub', 'gpu_to_gpu (env)', '']
            plus = at[item, n, 'cascade', 'deterministic', 'default_policy']
            ex, rep = at[item, n, 'cascade', 'exact', 'default_policy'], at[item, n, 'cascade', 'reproducible', 'default_policy']
            ceiling = '%.1f / %.1f' % (ex['ceiling_hot_us'], ex['ceiling_cold_us'])
            cells = [item, '2^%d' % (n.bit_length() - 1), pair(cub), pair(g2g), pair(plus)]
            if exact:
                best = min((r for k, r in at.items() if k[:4] == (item, n, 'cascade', 'exact') and k[4] != 'default_policy'),
                           key=lambda r: r['hot_us'])
                shape = best['name'][best['name'].index('(') + 1:best['name'].rindex(', ')]
                cells += [pair(ex), pair(rep), '%.1f (%s)' % (best['hot_us'], shape), ceiling,
                          '%.2fx' % (ex['hot_us'] / plus['hot_us']), '%.2fx' % (g2g['hot_us'] / ex['hot_us']),
                          '%.0f%%' % (100 * ex['ceiling_cold_us'] / ex['cold_us'])]
            else:
                cells += [pair(rep), pair(ex), ceiling, '%.2fx' % (g2g['hot_us'] / rep['hot_us']),
                          '%.2fx' % (cub['hot_us'] / rep['hot_us']), '%.0f%%' % (100 * rep['ceiling_cold_us'] / rep['cold_us'])]
            print('| ' + ' | '.join(cells) + ' |')
    sys.exit(0)
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
