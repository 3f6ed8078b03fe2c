#!/usr/bin/env python3
"""docs/ladder.md's two tables from a cascade-ladder run (an NVBench program: scripts/nvbench-run.sh):
the slides' presets at 2^22 ints beside the G80 times the slides report, and at 2^28 ints; with
--trees, docs/strategies.md's table of every tree at 2^22 and 2^28 ints, coarse 1 and 8
(doc_examples.py checks the pages' rows against what this prints). Times are NVBench's cold GPU
times (medians), GB/s the int32 items read over them.

    python3 scripts/ladder_tables.py RUN.json [--trees]
"""
import sys

from results_io import load_result, nvbench_rows

rows = [r for r in nvbench_rows(load_result(sys.argv[1])) if not r['skipped']]
for r in rows:
    r['cold_gbps'] = 4.0 * r['Elements'] / r['cold_us'] / 1e3
KERNELS = ['1: interleaved, divergent', '2: interleaved, strided index', '3: sequential addressing',
           '4: first add during load', '5: unroll last warp', '6: completely unrolled',
           '7: multiple elements per thread']
G80_MS = [8.054, 3.456, 1.722, 0.965, 0.536, 0.381, 0.268]  # the slides' times and bandwidths, 2^22 ints
G80_GBS = [2.083, 4.854, 9.741, 17.377, 31.289, 43.996, 62.671]


def section(n):
    return {r['Kernel']: r for r in rows if r['benchmark'] == 'ladder' and r['Elements'] == n}


def ladder(s, with_g80):
    out, first, prev = [], None, None
    for k in range(7):
        r = s['harris_reduce%d' % (k + 1)]
        cold = r['cold_us']
        first = first or cold
        cells = ['harris_reduce%d' % (k + 1)] + ([KERNELS[k]] if with_g80 else [])
        cells += ['%.1f' % cold, '%.0f' % r['cold_gbps'], '' if prev is None else '%.2fx' % (prev / cold),
                  '%.2fx' % (first / cold)]
        if with_g80:
            cells += ['%.3f' % G80_MS[k], '%.3f' % G80_GBS[k], '%.2fx' % (G80_MS[0] / G80_MS[k])]
        out.append(cells)
        prev = cold
    for name, shown, note in (('cub::DeviceReduce', 'cub::DeviceReduce', '(reference)'),
                              ('thrust::reduce', 'thrust::reduce', '(reference, result to host)')):
        r = s[name]
        cells = [shown] + ([note] if with_g80 else []) + ['%.1f' % r['cold_us'], '%.0f' % r['cold_gbps'], '', '']
        out.append(cells + (['', '', ''] if with_g80 else []))
    return out


def table(header, align, body):
    print('| ' + ' | '.join(header) + ' |')
    print('|' + '|'.join(align) + '|')
    for cells in body:
        line = '| ' + ' | '.join(cells) + ' |'
        while '|  |' in line:
            line = line.replace('|  |', '| |')
        print(line)


if '--trees' in sys.argv:
    trees = {(r['Tree'], r['Coarse'], r['Elements']): r for r in rows if r['benchmark'] == 'trees' and r['T'] == 'I32'}
    names = []
    for (name, _, _) in trees:
        if name not in names:
            names.append(name)

    def cell(r):
        us = r['cold_us']
        return '%s us, %.0f GB/s' % ('%.0f' % us if us >= 500 else '%.1f' % us, r['cold_gbps'])

    body = []
    for base in names:
        shown = '`%s`' % base + (' (with `finish::atomic`)' if base == 'none' else '')
        body.append([shown] + [cell(trees[(base, c, n)]) for n in (1 << 22, 1 << 28) for c in (1, 8)])
    table(['tree', '2^22, coarse 1', '2^22, coarse 8', '2^28, coarse 1', '2^28, coarse 8'],
          ['---', '---:', '---:', '---:', '---:'], body)
    sys.exit(0)

table(['preset', "slides' kernel", 'cold us', 'GB/s', 'step', 'cumulative', 'G80 ms', 'G80 GB/s', 'G80 cumulative'],
      ['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:'], ladder(section(1 << 22), True))
print()
table(['preset', 'cold us', 'GB/s', 'step', 'cumulative'], ['---', '---:', '---:', '---:', '---:'],
      ladder(section(1 << 28), False))
