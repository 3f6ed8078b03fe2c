#!/usr/bin/env python3
"""Markdown tables of cascade-rivals results, as docs/rivals.md shows them.

    python3 scripts/rivals_tables.py RIVALS-newest.json RIVALS-toolkit.json
    python3 scripts/rivals_tables.py RIVALS-newest.json PYTHON-RIVALS.json

A file of scripts/python_rivals.py adds PyTorch's and CuPy's columns to the reduce table: their time
over cascade's in that file (its own calls, in the same process), every size 2^10-2^30. The CUB
toolkit column is shown when a second CCCL's file is given.
"""
import sys
from collections import defaultdict

from python_rivals_tables import comparisons, python_rows, same_run_rows
from results_io import load_result, meta_of, rows_of


def version_key(v):
    return tuple(int(x) for x in v.split('.'))


PYTHON_LIBRARIES = [('torch', 'PyTorch'), ('cupy', 'CuPy')]


def load(paths):
    """cascade-rivals' timing rows (they name their CCCL), the GPU, and python_rivals.py's comparisons
    (python_rivals_tables.comparisons: each library against cascade's calls in the same file)."""
    rows, python, gpu = [], [], None
    for p in paths:
        d = load_result(p)
        timing = [r for r in rows_of(d) if r.get('kind') == 'timing']
        if any('cccl' in r for r in timing):
            rows += timing
            gpu = meta_of(d)['gpu']
        else:
            python += comparisons(same_run_rows(d), python_rows(d))
    return rows, python, gpu


def python_ratios(python, config, library):
    """library's time / cascade's at every size of one reduce configuration: ([hot], [cold])."""
    pairs = [(hot, cold) for family, c, _, lib, hot, cold, _ in python
             if family == 'reduce' and c == config and lib == library]
    return [h for h, _ in pairs], [c for _, c in pairs]


def rng(values):
    values = [v for v in values if v is not None]
    if not values:
        return '-'
    lo, hi = min(values), max(values)
    return f'{lo:.2f}' if abs(hi - lo) < 0.005 else f'{lo:.2f}-{hi:.2f}'


def main(paths):
    rows, python, gpu = load(paths)
    newest = max({r['cccl'] for r in rows}, key=version_key)
    oldest = min({r['cccl'] for r in rows}, key=version_key)
    g = defaultdict(list)
    for r in rows:
        g[(r['cccl'], r['family'], r['config'], r['n'])].append(r)

    def find(cccl, family, config, n, library, mode=None, name=None):
        for r in g.get((cccl, family, config, n), []):
            if r['library'] == library and (mode is None or r['mode'] == mode) and (name is None or name in r['name']):
                return r
        return None

    configs = sorted({r['config'] for r in rows if r['family'] == 'reduce'},
                     key=lambda c: (c.split('-')[1], ['float', 'double', 'int32', 'int64', 'int8', 'half'].index(c.split('-')[0])))
    lgs = lambda lo, hi: [1 << k for k in range(lo, hi + 1, 2)]
    toolkit = oldest != newest
    others = [name for lib, name in PYTHON_LIBRARIES if any(t[3] == lib for t in python)]
    rivals = [f'CUB {newest}'] + ([oldest] if toolkit else []) + others
    rivals = ', '.join(rivals[:-1]) + ' and ' + rivals[-1] if len(rivals) > 1 else rivals[0]
    print(f'### {gpu}: reduce, default_policy against {rivals}\n')
    whose = "The rival's" if others else 'CUB'
    print(f'{whose} time / `default_policy` time (above 1: cascade faster), hot / cold, ranges over the sizes.\n')
    print(f'| config | vs {newest} run_to_run, 2^14-2^22 | 2^24-2^30 | vs {newest} not_guaranteed, 2^14-2^22 | 2^24-2^30 '
          + (f'| vs {oldest}, 2^14-2^22 ' if toolkit else '')
          + ''.join(f'| vs {name}, 2^10-2^30 ' for name in others) + '| default - ceiling, 2^14-2^30 (us) |')
    print('|---' * (6 + toolkit + len(others)) + '|')
    for c in configs:
        cells = []
        for lo, hi in ((14, 22), (24, 30)):
            h, co = [], []
            for n in lgs(lo, hi):
                d = find(newest, 'reduce', c, n, 'cascade', 'deterministic')
                if d:
                    h.append(d['ratio_hot']), co.append(d['ratio_cold'])
            cells.append(f'{rng(h)} / {rng(co)}')
        for lo, hi in ((14, 22), (24, 30)):
            h, co = [], []
            for n in lgs(lo, hi):
                d = find(newest, 'reduce', c, n, 'cascade', 'deterministic')
                ng = find(newest, 'reduce', c, n, 'cub', 'not_guaranteed (env)')
                if d and ng:
                    h.append(ng['hot_us'] / d['hot_us']), co.append(ng['cold_us'] / d['cold_us'])
            cells.append(f'{rng(h)} / {rng(co)}' if h else '(falls back to run_to_run)')
        if toolkit:
            h, co = [], []
            for n in lgs(14, 22):
                d = find(oldest, 'reduce', c, n, 'cascade', 'deterministic')
                if d:
                    h.append(d['ratio_hot']), co.append(d['ratio_cold'])
            cells.append(f'{rng(h)} / {rng(co)}')
        for lib, name in PYTHON_LIBRARIES:
            if name in others:
                h, co = python_ratios(python, c, lib)
                cells.append(f'{rng(h)} / {rng(co)}')
        h, co = [], []
        for n in lgs(14, 30):
            d = find(newest, 'reduce', c, n, 'cascade', 'deterministic')
            if d and d['ceiling_hot_us']:
                h.append(d['hot_us'] - d['ceiling_hot_us']), co.append(d['cold_us'] - d['ceiling_cold_us'])
        cells.append(f'{rng(h)} / {rng(co)}')
        print(f'| {c} | ' + ' | '.join(cells) + ' |')

    print(f'\n### {gpu}: float plus, every CUB {newest} mode and cascade (us, hot / cold)\n')
    modes = [('cub', 'run_to_run (two-phase)', None), ('cub', 'run_to_run (env)', None),
             ('cub', 'not_guaranteed (env)', None), ('cub', 'gpu_to_gpu (env)', None),
             ('cascade', 'deterministic', None), ('cascade', 'not deterministic', '<256'),
             ('cascade', 'not deterministic', '<1024')]
    print('| n | read ceiling | CUB two-phase | CUB env run_to_run | CUB env not_guaranteed | CUB env gpu_to_gpu '
          '| cascade default_policy | cascade <256, 16, atomic> | cascade <1024, 16, atomic> |')
    print('|---|---|---|---|---|---|---|---|---|')
    for n in lgs(10, 30):
        d = find(newest, 'reduce', 'float-plus', n, 'cascade', 'deterministic')
        if not d:
            continue
        cells = [f"{d['ceiling_hot_us']:.2f} / {d['ceiling_cold_us']:.2f}"]
        for lib, mode, name in modes:
            r = find(newest, 'reduce', 'float-plus', n, lib, mode, name)
            cells.append(f"{r['hot_us']:.2f} / {r['cold_us']:.2f}" + ('' if r['agrees'] is not False else ' (wrong)')
                         if r else '-')
        print(f'| 2^{n.bit_length() - 1} | ' + ' | '.join(cells) + ' |')

    print(f'\n### {gpu}: where default_policy\'s time goes, float plus (us over the read ceiling, hot / cold)\n')
    print('| n | default_policy | <512, 8> with finish::flagged | <512, 8> kernel alone | finish (difference) '
          '| <1024, 16> with flagged | <1024, 16> alone | finish |')
    print('|---|---|---|---|---|---|---|---|')
    for n in lgs(14, 30):
        d = find(newest, 'reduce', 'float-plus', n, 'cascade', 'deterministic')
        rs = [find(newest, 'reduce', 'float-plus', n, 'cascade', m, s) for m, s in
              (('with finish::flagged', '<512'), ('no finish', '<512'), ('with finish::flagged', '<1024'),
               ('no finish', '<1024'))]
        if not d or None in rs:
            continue
        over = lambda r, m: r[m + '_us'] - d['ceiling_' + m + '_us']
        cell = lambda r: f"{over(r, 'hot'):+.2f} / {over(r, 'cold'):+.2f}"
        fin = lambda a, b: f"{a['hot_us'] - b['hot_us']:.2f} / {a['cold_us'] - b['cold_us']:.2f}"
        print(f'| 2^{n.bit_length() - 1} | {cell(d)} | {cell(rs[0])} | {cell(rs[1])} | {fin(rs[0], rs[1])} '
              f'| {cell(rs[2])} | {cell(rs[3])} | {fin(rs[2], rs[3])} |')

    print(f'\n### {gpu}: argmin, argmax, minmax (default_policy) against CUB {newest}\n')
    print('CUB time / cascade time, hot / cold; share of the read ceiling\'s bandwidth at 2^28-2^30 (cold).\n')
    print('| algorithm | item | vs CUB 2^14-2^22 | vs CUB 2^24-2^30 | of the ceiling, 2^28-2^30 |')
    print('|---|---|---|---|---|')
    for fam in ('argmin', 'argmax', 'minmax'):
        for item in ('float', 'double', 'int32', 'int8', 'half'):
            cells = []
            for lo, hi in ((14, 22), (24, 30)):
                h, co = [], []
                for n in lgs(lo, hi):
                    d = find(newest, fam, item, n, 'cascade', 'deterministic')
                    if d:
                        h.append(d['ratio_hot']), co.append(d['ratio_cold'])
                cells.append(f'{rng(h)} / {rng(co)}')
            share = [d['ceiling_cold_us'] / d['cold_us'] for n in lgs(28, 30)
                     for d in [find(newest, fam, item, n, 'cascade', 'deterministic')] if d]
            cells.append(rng([100 * s for s in share]).replace('.00', '') + ' %')
            print(f'| {fam} | {item} | ' + ' | '.join(cells) + ' |')

    print(f'\n### {gpu}: transform_reduce (sum of squares) against CUB {newest} TransformReduce and cascade\'s reduce\n')
    print('| item | vs CUB, 2^14-2^22 | vs CUB, 2^24-2^30 | transform_reduce / reduce of the same bytes, all sizes |')
    print('|---|---|---|---|')
    for item in ('float', 'double', 'half'):
        c = item + '-sum-of-squares'
        cells = []
        for lo, hi in ((14, 22), (24, 30)):
            h, co = [], []
            for n in lgs(lo, hi):
                d = find(newest, 'transform_reduce', c, n, 'cascade', 'deterministic')
                if d:
                    h.append(d['ratio_hot']), co.append(d['ratio_cold'])
            cells.append(f'{rng(h)} / {rng(co)}')
        h, co = [], []
        for n in lgs(10, 30):
            d = find(newest, 'transform_reduce', c, n, 'cascade', 'deterministic')
            p = find(newest, 'transform_reduce', c, n, 'cascade', 'plain reduce, same bytes')
            if d and p:
                h.append(d['hot_us'] / p['hot_us']), co.append(d['cold_us'] / p['cold_us'])
        cells.append(f'{rng(h)} / {rng(co)}')
        print(f'| {item} | ' + ' | '.join(cells) + ' |')


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
