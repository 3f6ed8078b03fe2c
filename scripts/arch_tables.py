#!/usr/bin/env python3
"""docs/performance.md's table of the portable tuning table against a measured one: time of
default_policy in a build for an older architecture over its time in the default build, hot and cold,
the median of each build's runs, per configuration and size (doc_examples.py checks the page's rows
against what this prints).

    python3 scripts/arch_tables.py OTHER-1.json OTHER-2.json -- DEFAULT-1.json DEFAULT-2.json
"""
import statistics
import sys

from results_io import load_result

args = sys.argv[1:]
split = args.index('--')
builds = [args[:split], args[split + 1:]]
runs = [[{(r['config'], r['n']): r for r in load_result(f)['rows'] if r.get('group') == 'default'} for f in files]
        for files in builds]
configs = list(dict.fromkeys(c for c, _ in runs[1][0]))
sizes = sorted({n for _, n in runs[1][0]})
print('| configuration | ' + ' | '.join('2^%d %s' % (n.bit_length() - 1, k) for n in sizes for k in ('hot', 'cold')) + ' |')
print('|---' * (1 + 2 * len(sizes)) + '|')
for c in configs:
    cells = []
    for n in sizes:
        for key in ('hot_us', 'cold_us'):
            other, default = (statistics.median(run[(c, n)][key] for run in b) for b in runs)
            cells.append('%.3f' % (other / default))
    print('| %s | %s |' % (c.replace('-', ' '), ' | '.join(cells)))
