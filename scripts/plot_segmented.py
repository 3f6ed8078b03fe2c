#!/usr/bin/env python3
"""Plots cascade-segmented results: GB/s against the segment size (2^26 floats in segments of one size
each) for every cascade segment owner, cascade's defaults, CUB (every CUB version found) and the read
ceiling; cold (L2 flushed, solid) and, with --hot, hot (dashed). The power-law case (variable lengths,
mean 32), where the files have it, is a bar chart beside it.

    python3 scripts/plot_segmented.py SEGMENTED.json [MORE.json ...] [--out docs/img] [--prefix segmented-h200]

Writes <out>/<prefix>.png. Rows of several files are joined: cascade-segmented (the toolkit's CUB) and
cascade-segmented-newest (the newest CCCL) record the CUB they were built with as cub_version (rows
without it are from before it was recorded: the toolkit's CUB). Each CUB is a series of its own;
cascade's rows and the read ceiling are taken from the newest CUB's build, as plot_rivals.py does.
Where a file holds a case twice (runs joined), the median is drawn.
"""
import argparse
import statistics
import sys
from collections import defaultdict

from results_io import load_result, meta_of, rows_of

try:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter
except ImportError:
    sys.exit('plot_segmented.py: matplotlib is missing; install it with: pip install matplotlib')

CUB_NAME = 'cub::DeviceSegmentedReduce::Sum'
OWNER_ORDER = ['thread', 'thread_vectors', 'warp<2>', 'warp<4>', 'warp<8>', 'warp<16>', 'warp<32>', 'block', 'blocks', 'binned']


def cub_label(version):
    """CUB_VERSION 300500 as 'CUB 3.5.0'; None (not recorded) as the toolkit's."""
    if version is None:
        return "CUB (toolkit's)"
    return f'CUB {version // 100000}.{version // 100 % 1000}.{version % 100}'


def label_of(name):
    """A row's name as the legend says it: 'segment::warp<8> <256, 4>', 'cascade default', 'CUB 3.0.1'."""
    if name == 'cascade default_policy':
        return 'cascade default'
    if name == 'cascade batched_reduce default_policy':
        return 'cascade batched_reduce default'
    return name.replace('cascade ', '', 1)


def owner_rank(label):
    for i, o in enumerate(OWNER_ORDER):
        if label.startswith(f'segment::{o} '):
            return i
    return len(OWNER_ORDER)


OWNER_STYLE = {  # color, marker: told apart by both
    'thread': ('#9467bd', 'v'), 'thread_vectors': ('#c5b0d5', '^'), 'warp<2>': ('#aec7e8', '1'), 'warp<4>': ('#17becf', '<'),
    'warp<8>': ('#2ca02c', '>'), 'warp<16>': ('#bcbd22', 'D'), 'warp<32>': ('#7f7f7f', 'p'),
    'block': ('#8c564b', 'h'), 'blocks': ('#e377c2', '*'), 'binned': ('#004d40', 'X'),
}
CUB_COLORS = ['#d62728', '#ff7f0e', '#8b0000', '#ffbf00']  # by age: the oldest red


def style_of(label):
    """Color, line width, line style, marker: CUB warm and thick, the defaults blue and thick, the owners
    thin, each its color and marker, the ceiling black and dotted."""
    if label == 'read ceiling':
        return dict(color='black', lw=1.2, ls=':', marker=None)
    if label.startswith('CUB'):
        return dict(color=style_of.cub.get(label, CUB_COLORS[0]), lw=2.4, ls='-', marker='s')
    if label == 'cascade default':
        return dict(color='#1f3fbf', lw=2.6, ls='-', marker='o')
    if label == 'cascade batched_reduce default':
        return dict(color='#1f3fbf', lw=1.6, ls='-.', marker='^')
    rank = owner_rank(label)
    color, marker = OWNER_STYLE[OWNER_ORDER[rank]] if rank < len(OWNER_ORDER) else ('#444444', '.')
    return dict(color=color, lw=1.8 if rank == OWNER_ORDER.index('binned') else 1.1, ls='-', marker=marker)


style_of.cub = {}  # CUB label -> color, set in main by age


def load(paths):
    rows, gpu, dates = [], '', set()
    for p in paths:
        data = load_result(p)
        meta = meta_of(data)
        gpu = gpu or meta.get('gpu', '')
        if meta.get('date'):
            dates.add(meta['date'])
        rows += [r for r in rows_of(data) if r.get('kind') == 'timing' and r.get('family') == 'segmented']
    if not rows:
        sys.exit('plot_segmented.py: no segmented timing rows in ' + ', '.join(paths))
    return rows, gpu, sorted(dates)


def gbps(r, key):
    us = r.get(key)
    return r['bytes'] / us / 1e3 if us else None


def median_or_none(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def collect(rows):
    """fixed: {label: {size: (cold, hot, agrees)}}; power: {label: (cold, hot, agrees)}; info of the
    power-law case; the CUB versions in the order drawn."""
    versions = sorted({r.get('cub_version') for r in rows}, key=lambda v: -1 if v is None else v)
    newest = versions[-1]
    fixed = defaultdict(lambda: defaultdict(list))
    power = defaultdict(list)
    info = {}
    for r in rows:
        power_law = r.get('lengths') == 'power-law'
        version = r.get('cub_version')
        if r['name'] == CUB_NAME:
            label = cub_label(version)
        elif version != newest:
            continue  # cascade's rows from the newest CUB's build only
        else:
            label = label_of(r['name'])
        point = (gbps(r, 'cold_us'), gbps(r, 'hot_us'), r.get('agrees', True))
        if power_law:
            power[label].append(point)
        else:
            fixed[label][r['segment_size']].append(point)
        if version == newest and r['name'] == CUB_NAME:  # one ceiling a case: the newest build's
            ceiling = (r['bytes'] / r['ceiling_cold_us'] / 1e3, r['bytes'] / r['ceiling_hot_us'] / 1e3, True)
            if power_law:
                power['read ceiling'].append(ceiling)
                info = {k: r.get(k) for k in ('mean_length', 'max_length', 'segments', 'alpha', 'seed')}
            else:
                fixed['read ceiling'][r['segment_size']].append(ceiling)

    def join(points):
        return (median_or_none(p[0] for p in points), median_or_none(p[1] for p in points),
                all(p[2] for p in points))

    fixed = {label: {size: join(pts) for size, pts in by_size.items()} for label, by_size in fixed.items()}
    power = {label: join(pts) for label, pts in power.items()}
    return fixed, power, info, versions


def size_text(n, _=None):
    n = int(round(n))
    for shift, unit in ((20, 'M'), (10, 'K')):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f'{n >> shift}{unit}'
    return str(n)


def plain(v, _=None):
    return f'{v:g}'


def ordered(labels):
    def key(label):
        if label.startswith('CUB'):
            return (0, label)
        if label.startswith('cascade '):
            return (1, label != 'cascade default', label)
        if label == 'read ceiling':
            return (3, label)
        return (2, owner_rank(label), label)
    return sorted(labels, key=key)


def draw_fixed(ax, fixed, hot):
    sizes = sorted({s for by_size in fixed.values() for s in by_size})
    for label in ordered(fixed):
        pts = sorted((s, v) for s, v in fixed[label].items() if v[0] is not None)
        if not pts:
            continue
        st = style_of(label)
        xs = [p[0] for p in pts]
        ax.plot(xs, [p[1][0] for p in pts], color=st['color'], lw=st['lw'], ls=st['ls'], marker=st['marker'],
                ms=4, label=label, zorder=3 if label.startswith(('CUB', 'cascade')) else 2)
        if hot and label != 'read ceiling':
            ax.plot(xs, [p[1][1] for p in pts], color=st['color'], lw=0.7, ls='--', zorder=1)
        bad = [(s, v[0]) for s, v in pts if not v[2]]
        if bad:
            ax.scatter([b[0] for b in bad], [b[1] for b in bad], marker='x', s=60, color='red', zorder=5,
                       label='disagrees with CUB' if 'disagrees with CUB' not in ax.get_legend_handles_labels()[1]
                       else None)
    ax.set_xscale('log', base=2)
    ax.set_yscale('log')
    ax.set_xticks(sizes)
    ax.xaxis.set_major_formatter(FuncFormatter(size_text))
    ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    ax.yaxis.set_major_formatter(FuncFormatter(plain))
    ax.set_xlabel('segment size (items; every segment the same)')
    ax.set_ylabel('GB/s read (items + offsets), log scale')
    ax.grid(alpha=0.3, which='both')
    ax.set_title('fixed segment sizes' + (' (solid: cold, L2 flushed; dashed: hot)' if hot else
                                          ' (cold, L2 flushed)'), fontsize=10)


def draw_power(ax, power, info):
    ceiling = power.get('read ceiling', (None, None, True))[0]
    bars = [(label, v) for label, v in power.items() if label != 'read ceiling' and v[0] is not None]
    bars.sort(key=lambda b: b[1][0])
    ys = range(len(bars))
    colors = [style_of(label)['color'] for label, _ in bars]
    ax.barh(list(ys), [b[1][0] for b in bars], color=colors, height=0.7)
    top = max([b[1][0] for b in bars] + [ceiling or 0])
    for y, (label, v) in zip(ys, bars):
        ax.text(v[0] + top * 0.01, y, f'{v[0]:.0f}' + ('' if v[2] else '  DISAGREES'), va='center', fontsize=7,
                color='black' if v[2] else 'red')
    if ceiling:
        ax.axvline(ceiling, color='black', ls=':', lw=1.2)
        ax.text(ceiling, -0.55, f'read ceiling {ceiling:.0f} ', fontsize=7, ha='right', va='bottom')
    ax.set_yticks(list(ys))
    ax.set_yticklabels([b[0] for b in bars], fontsize=8)
    ax.set_xlim(0, top * 1.18)
    ax.set_ylim(-0.6, len(bars) + 0.3)
    ax.set_xlabel('GB/s read, cold (L2 flushed)')
    ax.grid(alpha=0.3, axis='x')
    parts = ['power-law lengths']
    if info.get('mean_length') is not None:
        parts.append(f"mean {info['mean_length']:.1f} items, longest {info['max_length']:,}")
    if info.get('segments') is not None:
        alpha = f", alpha {info['alpha']:.3f}" if info.get('alpha') is not None else ''
        parts.append(f"{info['segments']:,} segments{alpha}")
    ax.set_title('\n'.join(parts), fontsize=10)


def main():
    ap = argparse.ArgumentParser(description='Plots cascade-segmented results (GB/s against segment size).')
    ap.add_argument('files', nargs='+', help='cascade-segmented JSON results (--out of the program)')
    ap.add_argument('--out', default='docs/img', help='the directory the PNG goes to (default docs/img)')
    ap.add_argument('--prefix', default='segmented-h200', help='the PNG file name without .png (default segmented-h200)')
    ap.add_argument('--hot', action='store_true', help='also draw hot runs (L2 warm), dashed')
    a = ap.parse_args()
    rows, gpu, dates = load(a.files)
    fixed, power, info, versions = collect(rows)
    for i, v in enumerate(versions):
        style_of.cub[cub_label(v)] = CUB_COLORS[i % len(CUB_COLORS)]

    if power:
        fig, (ax, axp) = plt.subplots(1, 2, figsize=(15, 7), gridspec_kw={'width_ratios': [2.1, 1]})
    else:
        fig, ax = plt.subplots(figsize=(10.5, 7))
    if fixed:
        draw_fixed(ax, fixed, a.hot)
    if power:
        draw_power(axp, power, info)
    handles, labels = ax.get_legend_handles_labels()
    last = sorted(range(len(labels)), key=lambda i: labels[i] == 'disagrees with CUB')  # the mark last
    handles, labels = [handles[i] for i in last], [labels[i] for i in last]
    ncol = 5 if power else 4
    fig.legend(handles, labels, loc='lower center', ncol=ncol, fontsize=8, frameon=False)
    legend_rows = (len(labels) + ncol - 1) // ncol
    cubs = ', '.join(cub_label(v) for v in versions)
    if len(versions) > 1:
        cubs += f'; cascade from the {cub_label(versions[-1])} build'
    fig.suptitle(f'{gpu}: segmented sums of 2^26 floats, cascade against cub::DeviceSegmentedReduce::Sum\n'
                 f'{cubs}; {", ".join(dates)}', fontsize=11)
    fig.tight_layout(rect=(0, 0.03 + 0.033 * legend_rows, 1, 0.95))
    path = f'{a.out}/{a.prefix}.png'
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print('wrote', path)


if __name__ == '__main__':
    main()
