#!/usr/bin/env python3
"""Turns benchmark results (the JSON written by the benchmark) into PNG plots.

For each config (float-plus, int32-minimum, ...) it writes <config>-bandwidth.png (GB/s against n:
default_policy, cub::DeviceReduce, thrust::reduce, the read ceiling and the best sweep row in one row of
panels, then each seed family's presets beside default_policy and the ceiling, a row each)
and <config>-ratio.png (CUB time / cascade time against n), plus one summary-ratio.png over all configs.
Each figure has a hot (L2 warm) and a cold (L2 flushed) panel. Several files are concatenated: their rows
are joined and the metadata (GPU, date) comes from the first.
Usage: plot.py RESULTS.json [MORE.json ...] [--out docs/img] [--configs float-plus,int32-plus]"""
import argparse, math, os, sys

from results_io import load_result, meta_of, sweep_rows

try:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit('plot.py: matplotlib is missing; install it with: pip install matplotlib')

MODES = (('hot', 'hot (L2 warm)'), ('cold', 'cold (L2 flushed)'))
SWEEP_GROUPS = ('shape', 'strategy')


def load_results(paths):
    """Returns (metadata of the first file, rows of all files concatenated)."""
    meta, rows = None, []
    for path in paths:
        data = load_result(path)
        if meta is None:
            meta = {k: v for k, v in meta_of(data).items() if k != 'rows'}
        rows.extend(sweep_rows(data))
    return meta, rows


def points(rows, key):
    """(n, row[key]) pairs sorted by n, skipping rows where the value is missing or null."""
    return sorted((r['n'], r[key]) for r in rows if r.get(key) is not None)


def select(rows, group, name=None):
    return [r for r in rows if r['group'] == group and (name is None or r['name'] == name)]


def best_sweep(rows, mode):
    """For each n, the shape/strategy row with the smallest <mode>_us time."""
    best = {}
    for r in rows:
        t = r.get(mode + '_us')
        if r['group'] in SWEEP_GROUPS and t is not None and (r['n'] not in best or t < best[r['n']][mode + '_us']):
            best[r['n']] = r
    return [best[n] for n in sorted(best)]


def plot_line(ax, pts, **style):
    """Draws one series if it has any points."""
    if pts:
        xs, ys = zip(*pts)
        ax.plot(xs, ys, marker=style.pop('marker', 'o'), **style)


def setup_log2_x(ax, ns):
    """Log2 x axis with ticks 2^10, 2^12, ... over the exponents present."""
    ax.set_xscale('log', base=2)
    exps = sorted({int(round(math.log2(n))) for n in ns if n > 0})
    if exps:
        ticks = [e for e in range(exps[0], exps[-1] + 1) if (e - exps[0]) % 2 == 0]
        ax.set_xticks([2 ** e for e in ticks], ['$2^{%d}$' % e for e in ticks])
        ax.minorticks_off()
    ax.set_xlabel('n (items)')
    ax.grid(True, which='major', alpha=0.3)


def ratio_yscale(axes, values):
    """Log y when the ratios span more than 4x, else linear; always keeps 1.0 visible."""
    values = [v for v in values if v and v > 0] + [1.0]
    if max(values) / min(values) > 4:
        for ax in axes:
            ax.set_yscale('log')


def two_panels(title):
    fig, axes = plt.subplots(1, 2, figsize=(13, 5.2), sharey=True)
    fig.suptitle(title)
    return fig, axes


def finish(fig, axes, path, legend_cols):
    """Puts one shared legend below the panels (so it never covers data) and saves the figure."""
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc='lower center', ncol=legend_cols, fontsize=8, frameon=False)
    rows = math.ceil(len(labels) / legend_cols)
    fig.tight_layout(rect=(0, 0.03 + 0.035 * rows, 1, 1))
    fig.savefig(path, dpi=120)
    plt.close(fig)
    print(path)


PRESET_FAMILIES = (('harris', '"Optimizing Parallel Reduction" slides'), ('pmpp', 'PMPP chapter 10'),
                   ('blog', 'blog ladders'))


def plot_bandwidth(meta, rows, config, path):
    """One row for the rivals (default_policy, CUB, Thrust, the ceiling, the best of the sweep), then
    one row per seed family, each beside default_policy and the ceiling: at most 9 series a panel."""
    presets = sorted({r['name'] for r in select(rows, 'preset')})
    families = [(prefix, title, [p for p in presets if p.startswith(prefix + '_')]) for prefix, title in PRESET_FAMILIES]
    families = [f for f in families if f[2]]
    others = [p for p in presets if not any(p in f[2] for f in families)]
    if others:
        families.append(('other', 'other presets', others))
    fig, grid = plt.subplots(1 + len(families), 2, figsize=(13, 4.2 * (1 + len(families))), sharey=True, squeeze=False)
    fig.suptitle('%s on %s, %s: GB/s (log scale)' % (config, meta.get('gpu', '?'), meta.get('date', '?')))
    colors = plt.get_cmap('tab10')
    for col, (mode, label) in enumerate(MODES):
        key = mode + '_gbps'
        def reference(ax):
            plot_line(ax, points(select(rows, 'default'), key), color='black', lw=2.4, zorder=5, label='default_policy')
            plot_line(ax, points(select(rows, 'ceiling'), key), color='grey', ls='--', ms=3, zorder=3, label='read ceiling')
        ax = grid[0][col]
        reference(ax)
        plot_line(ax, points(select(rows, 'cub'), key), color='tab:blue', ms=4, zorder=4, label='cub::DeviceReduce')
        plot_line(ax, points(select(rows, 'thrust'), key), color='tab:green', ms=4, zorder=4, label='thrust::reduce')
        plot_line(ax, points(best_sweep(rows, mode), key), color='tab:purple', ls=':', ms=3, zorder=6,
                  label='best of sweep')
        ax.set_title('%s: the rivals' % label)
        for row, (_, title, names) in enumerate(families, start=1):
            ax = grid[row][col]
            reference(ax)
            for i, name in enumerate(names):
                plot_line(ax, points(select(rows, 'preset', name), key), color=colors((i + 2) % 10), lw=1,
                          marker='.', ms=4, zorder=2, label=name)
            ax.set_title('%s: %s' % (mode, title))
    for row in grid:
        for ax in row:
            setup_log2_x(ax, [r['n'] for r in rows])
            ax.set_yscale('log')
        row[0].set_ylabel('GB/s')
        handles, labels = row[1].get_legend_handles_labels()
        row[1].legend(handles, labels, loc='upper left', bbox_to_anchor=(1.02, 1), fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.98))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(path)


def plot_ratio(meta, rows, config, path):
    fig, axes = two_panels('%s on %s, %s: CUB time / cascade time (>1: cascade faster)'
                           % (config, meta.get('gpu', '?'), meta.get('date', '?')))
    values = []
    for ax, (mode, label) in zip(axes, MODES):
        ax.axhline(1.0, color='grey', lw=1)
        series = [
            (points(select(rows, 'default'), 'cub_ratio_' + mode),
             dict(color='black', lw=2.4, label='cub::DeviceReduce / default_policy')),
            (points(best_sweep(rows, mode), 'cub_ratio_' + mode),
             dict(color='tab:purple', ls=':', ms=4, label='cub::DeviceReduce / best of sweep')),
            (points(select(rows, 'to_host'), 'thrust_ratio_' + mode),
             dict(color='tab:green', ms=4, label='thrust / cascade::reduce (to host)')),
        ]
        idle = points(select(rows, 'default'), 'cub_ratio_hot_idle') if mode == 'hot' else []
        if idle:  # files from 2026-11-22's second run on: hot on an idle GPU, the host's launch included
            series.append((idle, dict(color='grey', ls='--', ms=4,
                                      label='cub::DeviceReduce / default_policy, hot with the launch (idle GPU)')))
        for pts, style in series:
            if not pts:
                continue
            plot_line(ax, pts, **style)
            values += [v for _, v in pts]
        setup_log2_x(ax, [r['n'] for r in rows])
        ax.set_title(label)
    axes[0].set_ylabel('time ratio')
    ratio_yscale(axes, values)
    finish(fig, axes, path, legend_cols=3)


ITEM_COLORS = {'float': 'tab:blue', 'double': 'tab:orange', 'int32': 'tab:green', 'int64': 'tab:red',
               'int8': 'tab:purple', 'half': 'tab:brown'}


def summary_style(config):
    """A colour per item type and a line and marker per op, so no two of the twelve series look alike."""
    item, _, op = config.partition('-')
    style = dict(color=ITEM_COLORS.get(item, 'black'))
    if op == 'minimum':
        style.update(ls='--', marker='s', mfc='none')
    return style


def plot_summary(meta, rows, configs, path):
    fig, axes = two_panels('cub::DeviceReduce time / default_policy time on %s, %s (>1: cascade faster)'
                           % (meta.get('gpu', '?'), meta.get('date', '?')))
    values = []
    for ax, (mode, label) in zip(axes, MODES):
        ax.axhline(1.0, color='grey', lw=1)
        for config in configs:
            pts = points(select([r for r in rows if r['config'] == config], 'default'), 'cub_ratio_' + mode)
            plot_line(ax, pts, ms=4, label=config, **summary_style(config))
            values += [v for _, v in pts]
        setup_log2_x(ax, [r['n'] for r in rows])
        ax.set_title(label)
    axes[0].set_ylabel('time ratio')
    ratio_yscale(axes, values)
    finish(fig, axes, path, legend_cols=min(len(configs), 6) or 1)


def parse_args():
    p = argparse.ArgumentParser(description='Plots benchmark results as PNGs.')
    p.add_argument('results', nargs='+', help='results JSON file(s); rows are concatenated')
    p.add_argument('--out', default='docs/img', help='output folder (default docs/img)')
    p.add_argument('--configs', help='comma-separated configs to plot (default: all present)')
    return p.parse_args()


def main():
    args = parse_args()
    try:
        meta, rows = load_results(args.results)
    except (OSError, ValueError) as e:
        sys.exit('plot.py: cannot read results: %s' % e)
    present = list(dict.fromkeys(r['config'] for r in rows))
    configs = args.configs.split(',') if args.configs else present
    missing = [c for c in configs if c not in present]
    if missing:
        sys.exit('plot.py: no rows for config(s) %s; present: %s' % (', '.join(missing), ', '.join(present)))
    if not configs:
        sys.exit('plot.py: no rows in %s' % ', '.join(args.results))
    os.makedirs(args.out, exist_ok=True)
    for config in configs:
        config_rows = [r for r in rows if r['config'] == config]
        plot_bandwidth(meta, config_rows, config, os.path.join(args.out, config + '-bandwidth.png'))
        plot_ratio(meta, config_rows, config, os.path.join(args.out, config + '-ratio.png'))
    plot_summary(meta, rows, configs, os.path.join(args.out, 'summary-ratio.png'))


if __name__ == '__main__':
    main()
