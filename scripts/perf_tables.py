#!/usr/bin/env python3
"""docs/performance.md's summary table: CUB time / default_policy time (hot GPU time, the ratio of
each size's alternating runs as cascade-bench records it) by size band, for each configuration,
computed from the committed cascade-bench run the page names, so that the page cannot drift from its
results file (test/checks/doc_examples.py checks the block between `<!-- generated:
scripts/perf_tables.py -->` and `<!-- /generated -->`).

    python3 scripts/perf_tables.py [source root]             # the summary, by size band
    python3 scripts/perf_tables.py RUN.json[.xz] --every     # every configuration and size, hot / cold / idle
    python3 scripts/perf_tables.py RUN.json[.xz] --config C  # one configuration: times, ratios, GB/s, Thrust
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_io import load_result, sweep_rows  # noqa: E402

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
RUN = 'bench/results/bench-h200-2026-12-02.json.xz'
BANDS = [(10, 12), (14, 22), (24, 30)]
CONFIGS = [('float-plus', 'float plus'), ('float-minimum', 'float minimum'), ('int32-plus', 'int32 plus'),
           ('int32-minimum', 'int32 minimum'), ('double-plus', 'double plus'), ('double-minimum', 'double minimum'),
           ('int64-plus', 'int64 plus'), ('int64-minimum', 'int64 minimum'),
           ('int8-plus', 'int8 plus (int accumulator)'), ('int8-minimum', 'int8 minimum'),
           ('half-plus', 'half plus (float accumulator)'), ('half-minimum', 'half minimum')]

def launch_ratio(r):
    """CUB / default with the launch included: the older program's idle-GPU hot, or NVBench's batch."""
    return r['cub_ratio_hot_idle'] if r.get('cub_ratio_hot_idle') is not None else r.get('cub_ratio_batch')


def launch_label(rows):
    return 'hot idle' if any(r.get('cub_ratio_hot_idle') is not None for r in rows) else 'batch'


if '--every' in sys.argv:
    # CUB / default_policy at every size: hot / cold / hot on an idle GPU (the launch included; NVBench's
    # batch in an NVBench program's file)
    rows = [r for r in sweep_rows(load_result(sys.argv[1])) if r.get('group') == 'default']
    sizes = sorted({r['n'] for r in rows})
    print('| config | ' + ' | '.join('2^%d' % (n.bit_length() - 1) for n in sizes) + ' |')
    print('|---|' + '---:|' * len(sizes))
    for config, _ in CONFIGS:
        at = {r['n']: r for r in rows if r['config'] == config}
        print('| %s | %s |' % (config, ' | '.join('%.2f / %.2f / %.2f' % (
            at[n]['cub_ratio_hot'], at[n]['cub_ratio_cold'], launch_ratio(at[n])) for n in sizes)))
    sys.exit(0)
if '--config' in sys.argv:
    # one configuration in full: CUB and default_policy hot and cold (us), their ratios, the bandwidth
    # against the read ceiling (cold) and thrust::reduce / cascade::reduce (both returning to the host)
    config = sys.argv[sys.argv.index('--config') + 1]
    rows = [r for r in sweep_rows(load_result(sys.argv[1])) if r['config'] == config]
    at = {(r['group'], r['n']): r for r in rows if r['group'] in ('cub', 'default', 'ceiling', 'to_host')}
    print('| n | CUB hot | default hot | ratio | ratio, %s | CUB cold | default cold | ratio | ' % launch_label(rows) +
          'default GB/s (cold) | read ceiling GB/s (cold) | thrust / cascade::reduce (hot / cold, wall) |')
    print('|---|' + '---:|' * 10)
    for n in sorted({n for _, n in at}):
        c, d, e, h = at['cub', n], at['default', n], at['ceiling', n], at['to_host', n]
        print('| 2^%d | %.2f | %.2f | %.2fx | %.2fx | %.2f | %.2f | %.2fx | %.0f | %.0f | %.2fx / %.2fx |' % (
            n.bit_length() - 1, c['hot_us'], d['hot_us'], d['cub_ratio_hot'], launch_ratio(d), c['cold_us'],
            d['cold_us'], d['cub_ratio_cold'], d['cold_gbps'], e['cold_gbps'], h['thrust_ratio_hot'],
            h['thrust_ratio_cold']))
    sys.exit(0)
rows = [r for r in sweep_rows(load_result(os.path.join(root, RUN))) if r.get('group') == 'default']
print('| config | ' + ' | '.join('2^%d-2^%d' % band for band in BANDS) + ' |')
print('|---|' + '---:|' * len(BANDS))
for config, label in CONFIGS:
    cells = []
    for lo, hi in BANDS:
        v = [r['cub_ratio_hot'] for r in rows if r['config'] == config and lo <= r['n'].bit_length() - 1 <= hi]
        a, b = '%.2f' % min(v), '%.2f' % max(v)
        cells.append(a if a == b else a + '-' + b)
    print('| %s | %s |' % (label, ' | '.join(cells)))
