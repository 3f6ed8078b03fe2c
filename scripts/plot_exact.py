#!/usr/bin/env python3
"""Plots cascade-rivals' exact family (the JSON of `cascade-rivals --families exact`): GB/s against n
for cascade's plain sum, reproducible_plus and exact_plus under default_policy, CUB's default sum, CUB's
gpu_to_gpu sum (where the CCCL had it) and the read ceiling, hot and cold, one PNG per item type:
<out>/reproducible-<item>.png. docs/reproducible.md shows them.
Usage: plot_exact.py RESULTS.json [--out docs/img]"""
import argparse, os, sys

from results_io import load_result, meta_of, rows_of

try:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit('plot_exact.py: matplotlib is missing; install it with: pip install matplotlib')

# (label, test on a row, style): the series, in the legend's order.
SERIES = (
    ('cascade plus (default_policy)', lambda r: 'default_policy, plus)' in r['name'], dict(color='tab:blue')),
    ('CUB DeviceReduce::Sum', lambda r: r['library'] == 'cub' and r['mode'].startswith('run_to_run'),
     dict(color='tab:gray')),
    ('CUB gpu_to_gpu', lambda r: r['library'] == 'cub' and r['mode'].startswith('gpu_to_gpu'),
     dict(color='tab:red')),
    ('cascade reproducible_plus', lambda r: 'default_policy, reproducible_plus' in r['name'],
     dict(color='tab:green')),
    ('cascade exact_plus', lambda r: 'default_policy, exact_plus' in r['name'], dict(color='tab:purple')),
)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('results')
    ap.add_argument('--out', default='docs/img')
    a = ap.parse_args()
    data = load_result(a.results)
    rows = [r for r in rows_of(data) if r.get('kind') == 'timing' and r.get('family') == 'exact']
    data = meta_of(data)
    os.makedirs(a.out, exist_ok=True)
    for item in sorted({r['item'] for r in rows}):
        mine = [r for r in rows if r['item'] == item]
        fig, axes = plt.subplots(1, 2, figsize=(13, 4.8), sharey=True)
        for ax, mode in zip(axes, ('hot', 'cold')):
            for label, test, style in SERIES:
                pts = sorted((r['n'], r[mode + '_gbps']) for r in mine if test(r) and r.get(mode + '_gbps'))
                if pts:
                    xs, ys = zip(*pts)
                    ax.plot(xs, ys, marker='o', markersize=3, label=label, **style)
            ceiling = {}
            for r in mine:
                ceiling[r['n']] = r['bytes'] / r['ceiling_%s_us' % mode] / 1e3  # GB/s
            xs = sorted(ceiling)
            ax.plot(xs, [ceiling[n] for n in xs], color='black', linestyle='--', label='read ceiling')
            ax.set_xscale('log', base=2)
            ax.set_xlabel('items (n)')
            ax.set_title('%s, %s (%s)' % (item, mode, 'L2 warm' if mode == 'hot' else 'L2 flushed'))
            ax.grid(True, alpha=0.3)
        axes[0].set_ylabel('GB/s read (items x size / GPU time)')
        axes[0].legend(fontsize=8)
        fig.suptitle('%s sums on an %s, %s (cascade %s)' % (item, data.get('gpu', '?'), data.get('date', '?'),
                                                            data.get('cascade_commit', '?')))
        fig.tight_layout()
        path = os.path.join(a.out, 'reproducible-%s.png' % item)
        fig.savefig(path, dpi=110)
        plt.close(fig)
        print('wrote', path)


if __name__ == '__main__':
    main()
