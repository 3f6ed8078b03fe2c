#!/usr/bin/env python3
"""docs/performance.md's table of what IEEE minimum and maximum cost: default_policy's GPU time after
the change over before it (hot / cold), from the merged run of the two builds that
scripts/compare_builds.py reads; a range where several calls share a row (argmin and argmax), in bold
where it costs more than 1% (doc_examples.py checks the page's rows against what this prints).

    python3 scripts/ieee_cost_tables.py MERGED.json[.xz]
"""
import os
import subprocess
import sys

out = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'compare_builds.py'),
                      '--merged', sys.argv[1]], capture_output=True, text=True, check=True).stdout
ratio = {}  # (call, config, log2 n) -> (hot, cold)
for line in out.split('\n'):
    cells = [c.split() for c in line.split('|')]
    if len(cells) == 3 and len(cells[0]) == 3 and cells[0][2].startswith('2^'):
        ratio[cells[0][0], cells[0][1], int(cells[0][2][2:])] = (float(cells[1][2]), float(cells[2][2]))
sizes = sorted({k[2] for k in ratio})
ROWS = [('`plus` double (control)', [('reduce', 'double-plus')]), ('`minimum` double', [('reduce', 'double-minimum')])]
for item in ('float', 'double', 'half'):
    ROWS.append(('argmin, argmax ' + item, [('argmin', item), ('argmax', item)]))
for item in ('float', 'double', 'half'):
    ROWS.append(('minmax ' + item, [('minmax', item)]))


def span(values):
    lo, hi = '%.3f' % min(values), '%.3f' % max(values)
    return lo if lo == hi else lo + '-' + hi


def cell(hot, cold):
    """hot / cold, each in bold where it costs more than 1%; the pair in one bold when both do."""
    h, c = span(hot), span(cold)
    bold_h, bold_c = max(hot) > 1.010, max(cold) > 1.010
    if bold_h and bold_c:
        return '**%s / %s**' % (h, c)
    return '%s / %s' % ('**%s**' % h if bold_h else h, '**%s**' % c if bold_c else c)


print('| | ' + ' | '.join('2^%d' % s for s in sizes) + ' |')
print('|---' * (1 + len(sizes)) + '|')
for label, calls in ROWS:
    print('| %s | %s |' % (label, ' | '.join(cell([ratio[c + (s,)][0] for c in calls], [ratio[c + (s,)][1] for c in calls])
                                            for s in sizes)))
