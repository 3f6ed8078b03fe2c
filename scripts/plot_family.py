#!/usr/bin/env python3
"""Plots a cascade-family run (bench/family.cu) against its bars: left, each algorithm's hot time over
cascade's own reduce_into over the same bytes (the bar: within 3%, at most 1.03); middle, reduce_by_key's
speed against CUB's ReduceByKey (CUB time / cascade time; the bar: 1.2); right, the bytes reduce_by_key
moves (pairs read, runs written) as a share of the memory's peak (the bar: 80% from mean length 64).

    python3 scripts/plot_family.py RUN.json[.xz] [--out docs/img] [--prefix family-h200]

Writes <out>/<prefix>.png.
"""
import argparse
import sys

from results_io import load_result, meta_of, rows_of

try:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit('plot_family.py: matplotlib is missing; install it with: pip install matplotlib')


def series(rows, family, config, name_prefix):
    """{n: row} of the first row per size whose name starts with name_prefix."""
    out = {}
    for r in rows:
        if (r['family'], r['config']) == (family, config) and r['name'].startswith(name_prefix) and r['hot_us']:
            out.setdefault(r['n'], r)
    return out


def clock(r):
    """'gpu' or 'host': the old rows' clock; cascade-family's NVBench rows carry it too, and the driver marks
    host-clock hot times hot_clock."""
    return r.get('clock') or ('host' if r.get('hot_clock') == 'host' else 'gpu')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('run')
    ap.add_argument('--out', default='docs/img')
    ap.add_argument('--prefix', default='family-h200')
    a = ap.parse_args()
    doc = load_result(a.run)
    meta = meta_of(doc)  # the old file's top level or the NVBench layout's environment
    rows = [r for r in rows_of(doc) if r.get('kind') == 'timing' and clock(r) == 'gpu']
    peak = meta.get('memory_gbs')  # the peak memory bandwidth; absent: the right panel is left empty
    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(17, 5))

    calls = [('count', '==7', 'cascade::count_into'), ('count_if', 'odd', 'cascade::count_if_into'),
             ('count_if', 'x<0.5', 'cascade::count_if_into'), ('inner_product', 'x.y', 'cascade::inner_product_into'),
             ('min_element', 'float', 'cascade::min_element_into'), ('min_element', 'int32', 'cascade::min_element_into'),
             ('max_element', 'float', 'cascade::max_element_into'), ('minmax_element', 'float', 'cascade::minmax_element_into'),
             ('minmax_element', 'int32', 'cascade::minmax_element_into')]
    for family, config, name in calls:
        mine = series(rows, family, config, name)
        same = series(rows, family, config, 'cascade::reduce_into')
        ns = sorted(n for n in mine if n in same)
        if ns:
            left.plot(ns, [mine[n]['hot_us'] / same[n]['hot_us'] for n in ns], marker='o', label=f'{family} ({config})')
    left.axhline(1.03, color='k', linestyle='--', linewidth=1, label='bar: 1.03')
    left.set(xscale='log', xlabel='items', ylabel="hot time / reduce_into's over the same bytes",
             title='the family against reduce (lower is better)')
    left.set_xscale('log', base=2)
    left.legend(fontsize=7)

    configs = sorted({r['config'] for r in rows if r['family'] == 'reduce_by_key'},
                     key=lambda c: (c == 'power-law', int(c.split('=')[1]) if '=' in c else 0))
    for config in configs:
        mine = series(rows, 'reduce_by_key', config, 'cascade::reduce_by_key_into')
        mine = {n: r for n, r in mine.items() if r['name'] == 'cascade::reduce_by_key_into'}
        cub = series(rows, 'reduce_by_key', config, 'cub::')
        ns = sorted(n for n in mine if n in cub)
        middle.plot(ns, [cub[n]['hot_us'] / mine[n]['hot_us'] for n in ns], marker='o', label=config)
        moved = {n: 8.0 * n + 8.0 * float(mine[n]['result']) for n in ns}
        if peak:
            right.plot(ns, [100.0 * moved[n] / mine[n]['hot_us'] / 1e3 / peak for n in ns], marker='o', label=config)
    middle.axhline(1.2, color='k', linestyle='--', linewidth=1, label='bar: 1.2')
    middle.axhline(1.0, color='grey', linestyle=':', linewidth=1)
    middle.set(xlabel='pairs', ylabel="CUB's time / cascade's (above 1: cascade faster)",
               title="reduce_by_key against CUB's ReduceByKey")
    middle.set_xscale('log', base=2)
    middle.legend(fontsize=8, title='run lengths')
    right.axhline(80, color='k', linestyle='--', linewidth=1, label='bar: 80% (mean >= 64)')
    right.set(xlabel='pairs', ylabel=f'% of the {peak} GB/s peak',
              title='reduce_by_key: bytes moved' + ('' if peak else ' (no peak in the results file)'), ylim=(0, 100))
    right.set_xscale('log', base=2)
    right.legend(fontsize=8, title='run lengths')
    fig.suptitle(f"cascade-family on an {meta.get('gpu')} (CCCL {meta.get('cccl')}, {meta.get('date')}): hot GPU time")
    fig.tight_layout()
    path = f'{a.out}/{a.prefix}.png'
    fig.savefig(path, dpi=110)
    print(path)


if __name__ == '__main__':
    main()
