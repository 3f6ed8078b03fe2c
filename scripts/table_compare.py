#!/usr/bin/env python3
"""Which tuning table serves the GPU a cascade-rivals run was measured on: its reduce rows time each
GPU class's table (tuned_policy<Class>, mode "deterministic (one table)") and default_policy beside
CUB, in the same alternating runs. For each configuration (item type and op) and table, the ratio
CUB run_to_run (two-phase) time / the table's time, hot and cold, at every size; then where each table
is more than 3% slower than the fastest table there; then, per table entry (item size, op kind), each
table's geometric mean of time / the fastest table's, default_policy's beside.

    python3 scripts/table_compare.py rivals-h200-...-cccl3.5.0.json [--from-log2 10] [--sizes]
    python3 scripts/table_compare.py --rows RUN.json... # one table row a run: sizes > 3% slower (worst)

Ratios are the medians of per-round ratios that cascade-rivals records; differences under 3% are
within the runs' noise at the small sizes (a few microseconds).
"""
import math
import sys
from collections import defaultdict

from results_io import load_result, meta_of, rows_of


def table_groups(doc, lo=10):
    """(config, n) -> {label: row}: each table's tuned_policy row and default_policy's."""
    groups = defaultdict(dict)
    for r in rows_of(doc):
        if r.get('kind') != 'timing' or r['family'] != 'reduce' or r['n'].bit_length() - 1 < lo:
            continue
        if r['mode'] == 'deterministic (one table)':
            groups[(r['config'], r['n'])][r['name'].split('tuned_policy<')[1].rstrip('>)')] = r
        elif r['mode'] == 'deterministic':
            groups[(r['config'], r['n'])]['default_policy'] = r
    return groups


def slower_counts(groups, tables):
    """Per table: [sizes x hot/cold more than 3% slower than the fastest table, sizes x hot/cold,
    (worst loss, where)]."""
    counts = {t: [0, 0, (0.0, '')] for t in tables}
    for (config, n), g in sorted(groups.items()):
        for m in ('hot', 'cold'):
            best = min(g[t][m + '_us'] for t in tables if t in g)
            for t in tables:
                if t not in g:
                    continue
                loss = g[t][m + '_us'] / best - 1
                counts[t][1] += 1
                counts[t][0] += loss > 0.03
                if loss > counts[t][2][0]:
                    counts[t][2] = (loss, f"{config} n={n} {m}")
    return counts


def run_rows(paths):
    """A markdown table: a row a run, a column a table, each cell the sizes x hot/cold where that table
    is more than 3% slower than the fastest table, of all, and its worst loss."""
    runs = []
    for p in paths:
        doc = load_result(p)
        groups = table_groups(doc)
        ts = sorted({label for g in groups.values() for label in g if label != 'default_policy'})
        runs.append((doc, ts, slower_counts(groups, ts)))
    tables = sorted({t for _, ts, _ in runs for t in ts}, key=lambda t: (t == 'sm90_previous', t != 'sm90_h200', t))
    print('| run | ' + ' | '.join(tables) + ' |')
    print('|---' * (1 + len(tables)) + '|')
    for doc, _, counts in runs:
        gpu = meta_of(doc)['gpu'].replace('NVIDIA ', '').split()[0]
        cccl = {r.get('cccl') for r in rows_of(doc) if r.get('cccl')}
        label = '%s, %s, CUB %s' % (gpu, meta_of(doc).get('cascade_commit'), '/'.join(sorted(cccl)))
        print('| %s | %s |' % (label, ' | '.join('%d of %d (+%.0f%%)' % (counts[t][0], counts[t][1], 100 * counts[t][2][0])
                                                 if t in counts else '' for t in tables)))


def main(argv):
    if '--rows' in argv:
        return run_rows(argv[argv.index('--rows') + 1:])
    path = argv[1]
    lo = int(argv[argv.index('--from-log2') + 1]) if '--from-log2' in argv else 10
    sizes = '--sizes' in argv
    doc = load_result(path)
    rows = [r for r in rows_of(doc) if r.get('kind') == 'timing' and r['family'] == 'reduce']
    meta = meta_of(doc)
    print(f"{meta['gpu']} ({meta.get('memory_gbs', '?')} GB/s, {meta.get('l2_mb')} MB L2), "
          f"commit {meta.get('cascade_commit')}, CCCL {rows[0]['cccl'] if rows else '?'}")
    groups = table_groups(doc, lo)
    tables = sorted({label for g in groups.values() for label in g if label != 'default_policy'})
    configs = sorted({c for c, _ in groups})
    for config in configs:
        ns = sorted(n for c, n in groups if c == config)
        print(f"\n{config}: CUB run_to_run / table, hot | cold (min, median over {len(ns)} sizes)")
        for t in tables + ['default_policy']:
            for m in ('hot', 'cold'):
                rs = [groups[(config, n)][t]['ratio_' + m] for n in ns if t in groups[(config, n)]]
                if not rs:
                    continue
                rs_sorted = sorted(rs)
                print(f"  {t:15s} {m:4s} min {rs_sorted[0]:.2f}  median {rs_sorted[len(rs) // 2]:.2f}")
        for n in ns:
            g = groups[(config, n)]
            line = []
            for m in ('hot', 'cold'):
                best = min(g[t][m + '_us'] for t in tables if t in g)
                for t in tables:
                    if t not in g:
                        continue
                    loss = g[t][m + '_us'] / best - 1
                    if loss > 0.03:
                        line.append(f"{t} {m} +{100 * loss:.0f}%")
            if sizes or line:
                times = ' '.join(f"{t}={g[t]['hot_us']:.2f}/{g[t]['cold_us']:.2f}" for t in tables if t in g)
                print(f"    n={n:>11d}  {times}  us hot/cold" + ("   slower: " + ', '.join(line) if line else ''))
    print("\nmore than 3% slower than the fastest table (sizes x hot/cold):")
    for t, (slow, of, (worst, where)) in slower_counts(groups, tables).items():
        print(f"  {t:15s} {slow:3d} of {of}; worst +{100 * worst:.1f}% ({where})")
    # Per table entry (item size, op kind; int32 shares float's entries, int64 double's): the geometric
    # mean over sizes and hot/cold of time / the fastest table's time, and the largest such ratio.
    bytes_of = {'int8': 1, 'half': 2, 'float': 4, 'int32': 4, 'double': 8, 'int64': 8}
    per_entry = defaultdict(lambda: defaultdict(list))
    for (config, n), g in groups.items():
        item, op = config.split('-')
        key = (bytes_of[item], 'sum' if op == 'plus' else 'min_max')
        for m in ('hot', 'cold'):
            best = min(g[t][m + '_us'] for t in tables if t in g)
            for t in g:
                per_entry[key][t].append(g[t][m + '_us'] / best)
    print("\nper table entry: geometric mean of time / the fastest table's (largest), over sizes, hot and cold:")
    for key in sorted(per_entry):
        cells = [f"{t} {math.exp(sum(map(math.log, v)) / len(v)):.3f} ({max(v):.2f})"
                 for t, v in sorted(per_entry[key].items())]
        print(f"  {key[0]} byte {key[1]:7s}  " + '  '.join(cells))


if __name__ == '__main__':
    main(sys.argv)
