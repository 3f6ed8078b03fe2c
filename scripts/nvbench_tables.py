#!/usr/bin/env python3
"""NVBench's figures beside cascade-bench's, for the same calls on the same GPU.

    # on the GPU machine, one after the other:
    build/bench/cascade-nvbench-reduce --stopping-criterion entropy --json nv.json
    scripts/nvbench-run.sh build/bench/cascade-bench ours.json --no-sweep \\
        --units float-plus,double-plus,int32-plus,int64-plus,int8-plus,half-plus
    python3 scripts/nvbench_tables.py --merge nv.json ours.json --out bench/results/nvbench-h200-DATE.json
    python3 scripts/nvbench_tables.py bench/results/nvbench-h200-DATE.json     # the Markdown table

The merged file keeps both documents whole: {"nvbench": NVBench's JSON, "cascade_bench": cascade-bench's}.
A row: NVBench's cold GPU time (its L2 flush and blocking kernel; mean) and cascade-bench's cold time
(median; before cascade-bench moved onto NVBench, its own L2 flush: a memset of twice the L2), then NVBench's batch GPU time (launches back to back) and cascade-bench's hot time (each call
queued behind a spin kernel), each as cascade / CUB in us and CUB / cascade."""
import argparse
import json
import lzma
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_io import load_result, sweep_rows  # noqa: E402

NVBENCH_TYPES = {'F32': 'float', 'F64': 'double', 'I32': 'int32', 'I64': 'int64', 'I8': 'int8', 'half': 'half'}


def summary(state, tag):
    for s in state['summaries']:
        if s['tag'] == tag:
            return float(s['data'][0]['value'])
    return None


def nvbench_rows(doc):
    """{(item, n, contender): (cold us, batch us)} of the reduce_sum benchmark."""
    rows = {}
    for bench in doc['benchmarks']:
        for state in bench['states']:
            if state.get('is_skipped'):
                continue
            axes = {a['name']: a['value'] for a in state['axis_values']}
            cold, batch = summary(state, 'nv/cold/time/gpu/mean'), summary(state, 'nv/batch/time/gpu/mean')
            if cold is None or batch is None:
                continue
            rows[(NVBENCH_TYPES.get(axes['T'], axes['T']), int(axes['Elements']), axes['Contender'])] = (cold * 1e6,
                                                                                                        batch * 1e6)
    return rows


def ours_rows(doc):
    """{(item, n, 'cascade' | 'cub'): (cold us, hot us)} of default_policy and CUB."""
    names = {'default': 'cascade', 'cub': 'cub'}
    return {(r['item'], r['n'], names[r['group']]): (r['cold_us'], r['hot_us'])
            for r in sweep_rows(doc) if r['group'] in names and r.get('op') == 'plus'}


def table(path):
    doc = load_result(path)
    nv, ours = nvbench_rows(doc['nvbench']), ours_rows(doc['cascade_bench'])
    print('| item | n | NVBench cold us | x | ours cold us | x | NVBench batch us | x | ours hot us | x |')
    print('|---|---|---|---|---|---|---|---|---|---|')
    items = list(dict.fromkeys(k[0] for k in nv))
    for item in items:
        for n in sorted({k[1] for k in nv if k[0] == item}):
            keys = [(item, n, c) for c in ('cascade', 'cub')]
            if not all(k in nv and k in ours for k in keys):
                continue
            (nc, nb), (cc, cb) = nv[keys[0]], nv[keys[1]]
            (oc, oh), (uc, uh) = ours[keys[0]], ours[keys[1]]
            print('| %s | 2^%d | %.2f / %.2f | %.2f | %.2f / %.2f | %.2f | %.2f / %.2f | %.2f | %.2f / %.2f | %.2f |' % (
                item, n.bit_length() - 1, nc, cc, cc / nc, oc, uc, uc / oc, nb, cb, cb / nb, oh, uh, uh / oh))
    return 0


def merge(nv_path, ours_path, out):
    with open(nv_path) as f:
        nv = json.load(f)
    with open(ours_path) as f:
        ours = json.load(f)
    text = json.dumps({'nvbench': nv, 'cascade_bench': ours}, separators=(',', ':'))
    if out.endswith('.xz'):
        with lzma.open(out, 'wt', encoding='utf-8', preset=9 | lzma.PRESET_EXTREME) as f:
            f.write(text)
    else:
        with open(out, 'w') as f:
            f.write(text)
    print('%s: %d NVBench states, %d cascade-bench rows' % (
        out, sum(len(b['states']) for b in nv['benchmarks']), len(ours['rows'])))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('file', nargs='?', help='a merged results file: print its table')
    ap.add_argument('--merge', nargs=2, metavar=('NVBENCH_JSON', 'CASCADE_BENCH_JSON'))
    ap.add_argument('--out', help='the merged file to write (NAME.xz: compressed)')
    args = ap.parse_args()
    if args.merge:
        if not args.out:
            ap.error('--merge needs --out')
        return merge(*args.merge, args.out)
    if not args.file:
        ap.error('name a merged results file, or --merge')
    return table(args.file)


if __name__ == '__main__':
    sys.exit(main())
