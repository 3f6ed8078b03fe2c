#!/usr/bin/env python3
"""Plots cascade-rivals results: GB/s against n for cascade and every CUB call, each CCCL's, beside the
read ceiling, one panel per configuration, cold (L2 flushed, solid) and hot (dashed).

    python3 scripts/plot_rivals.py RIVALS.json [MORE.json ...] [--out docs/img] [--prefix rivals-h200]

Writes <prefix>-reduce.png, <prefix>-arg.png and <prefix>-transform.png. Rows of several files (the
toolkit's CCCL and the newest) are joined; cascade's rows are taken from the newest CCCL's file.
"""
import argparse
import sys
from collections import defaultdict

from results_io import load_result, rows_of

try:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit('plot_rivals.py: matplotlib is missing; install it with: pip install matplotlib')


def version_key(v):
    return tuple(int(x) for x in v.split('.'))


def series_of(rows, newest):
    """{(family, config): {label: [(n, hot_gbps, cold_gbps)]}} with the read ceiling as a series."""
    out = defaultdict(lambda: defaultdict(list))
    for r in rows:
        if r.get('kind') != 'timing' or r['mode'] in ('no finish', 'with finish::flagged', 'deterministic (one table)',
                                                             'deterministic (fixed shape)'):
            continue
        if r['library'] == 'cascade':
            if r['cccl'] != newest:
                continue
            label = 'cascade ' + r['name'].replace('cascade::', '')
        else:
            label = f"CUB {r['cccl']} {r['mode']}"
        key = (r['family'], r['config'])
        out[key][label].append((r['n'], r['hot_gbps'], r['cold_gbps']))
        if r['cccl'] == newest and r['library'] == 'cub' and r['mode'] == 'run_to_run (two-phase)' and r.get(
                'ceiling_hot_us'):
            out[key]['read ceiling'].append((r['n'], r['bytes'] / r['ceiling_hot_us'] / 1e3,
                                             r['bytes'] / r['ceiling_cold_us'] / 1e3))
    return out


def figure(series, keys, title, path, columns=4):
    rows = (len(keys) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, 3.3 * rows), squeeze=False)
    colors = {}
    palette = plt.rcParams['axes.prop_cycle'].by_key()['color'] + ['black', 'grey']
    for ax, key in zip(axes.flat, keys):
        for label, pts in sorted(series[key].items()):
            pts = sorted(p for p in pts if p[1] is not None and p[2] is not None)
            if not pts:
                continue
            color = 'black' if label == 'read ceiling' else colors.setdefault(label, palette[len(colors) % len(palette)])
            ns = [p[0] for p in pts]
            ax.plot(ns, [p[2] for p in pts], color=color, marker='o', ms=2.5, lw=1.2, label=label)
            ax.plot(ns, [p[1] for p in pts], color=color, ls='--', lw=0.8)
        ax.set_xscale('log', base=2)
        ax.set_title(f'{key[0]} {key[1]}', fontsize=9)
        ax.set_xlabel('items', fontsize=8)
        ax.set_ylabel('GB/s read', fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(keys):]:
        ax.axis('off')
    handles, labels = {}, {}
    for ax in axes.flat:
        for h, l in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(l, h)
    fig.legend(list(handles.values()), list(handles.keys()), loc='lower center', ncol=3, fontsize=8,
               bbox_to_anchor=(0.5, 0.0))
    fig.suptitle(title + ' (solid: cold, L2 flushed; dashed: hot)', fontsize=11)
    fig.tight_layout(rect=(0, 0.06 + 0.02 * (len(handles) // 3), 1, 0.97))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print('wrote', path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('files', nargs='+')
    ap.add_argument('--out', default='docs/img')
    ap.add_argument('--prefix', default='rivals')
    a = ap.parse_args()
    rows, gpu = [], ''
    for p in a.files:
        data = load_result(p)
        gpu = gpu or data.get('environment', {}).get('gpu', '') or data.get('gpu', '')
        rows += rows_of(data)
    newest = max({r['cccl'] for r in rows if r.get('kind') == 'timing'}, key=version_key)
    series = series_of(rows, newest)
    keys = sorted(series)
    for family, names in (('reduce', ('reduce',)), ('arg', ('argmin', 'argmax', 'minmax')),
                          ('transform', ('transform_reduce',))):
        chosen = [k for k in keys if k[0] in names]
        if chosen:
            figure(series, chosen, f'{gpu} {family}: cascade against CUB', f'{a.out}/{a.prefix}-{family}.png',
                   columns=4 if family == 'reduce' else 3)


if __name__ == '__main__':
    main()
