#!/usr/bin/env python3
"""Plots cascade-distributed results: weak-scaling efficiency (GPU time on 1 rank over the time on N, at
the same floats per GPU) against the floats per GPU, for each number of ranks and each path, and the
time the distributed call adds to the local reduce beside NCCL's collective of one value alone.

    python3 scripts/plot_distributed.py DISTRIBUTED.json [--out docs/img] [--prefix distributed-h200x4]

Writes <out>/<prefix>.png.
"""
import argparse
import sys
from collections import defaultdict

from results_io import load_result

try:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit('plot_distributed.py: matplotlib is missing; install it with: pip install matplotlib')

PATHS = ['nvlink', 'all_reduce', 'all_gather', 'custom op']  # those the run has
STYLE = {'nvlink': '-.', 'all_reduce': '-', 'all_gather': '--', 'custom op': ':'}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('json')
    ap.add_argument('--out', default='docs/img')
    ap.add_argument('--prefix', default='distributed')
    a = ap.parse_args()
    doc = load_result(a.json)
    t = defaultdict(dict)  # (name, ranks) -> {log2 n: gpu_us}
    for r in doc['rows']:
        t[(r['name'], r['ranks'])][r['log2_items_per_rank']] = r['gpu_us']
    ranks = sorted({k[1] for k in t})
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    colors = dict(zip(ranks, plt.rcParams['axes.prop_cycle'].by_key()['color']))
    paths = [p for p in PATHS if (p, 1) in t]
    for n in ranks[1:]:
        for p in paths:
            one, many = t[(p, 1)], t[(p, n)]
            xs = sorted(set(one) & set(many))
            left.plot(xs, [100 * one[x] / many[x] for x in xs], STYLE[p], marker='o', color=colors[n],
                      label=f'{n} GPUs, {p}')
    left.axhline(95, color='gray', lw=0.8)
    left.set(xlabel='log2 floats per GPU', ylabel='weak-scaling efficiency (%)', ylim=(50, 101),
             title='time on 1 GPU / time on N (GPU time)')
    left.legend(fontsize=7)
    for n in ranks:
        local = t[('local', n)]
        for p, style in [('nvlink', '-.'), ('all_reduce', '-'), ('nccl all_reduce', ':')]:
            if (p, n) not in t:
                continue
            xs = sorted(set(local) & set(t[(p, n)]))
            ys = [t[(p, n)][x] - local[x] if p != 'nccl all_reduce' else t[(p, n)][x] for x in xs]
            right.plot(xs, ys, style, marker='o', color=colors[n],
                       label=f'{n} GPU{"s" if n > 1 else ""}, ' + (f'{p}: call - local' if p != 'nccl all_reduce' else 'NCCL alone'))
    right.set(xlabel='log2 floats per GPU', ylabel='microseconds',
              title='what the call adds to the local reduce')
    right.legend(fontsize=7)
    fig.suptitle(f"cascade distributed reduce, {doc['gpu']} x{max(ranks)}, NCCL_NVLS_ENABLE=0, commit {doc['cascade_commit']}")
    fig.tight_layout()
    out = f'{a.out}/{a.prefix}.png'
    fig.savefig(out, dpi=110)
    print(out)


if __name__ == '__main__':
    main()
