#!/usr/bin/env python3
"""One results file from several invocations of one NVBench program (scripts/nvbench-run.sh's files),
run one after the other on one GPU from one build: NVBench's benchmarks and the notes of each, in
order, the environment of the first with `runs` saying what each invocation was. A program's units
are its benchmarks, so invocations over disjoint units (--units, --cases) merge without overlap; a
benchmark in two files keeps the states of both.

    python3 scripts/results_merge.py OUT.json A.json B.json --runs "--cases count,...; --cases by_key ..."

Exits 2 (nothing written) when the files are of different GPUs, commits or programs' CCCL. With
--commits-differ files of different commits merge (their commits listed in `run_commits`, the
environment's `cascade_commit` the first's): for units the commits between them do not reach, which
--runs must say.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_io import load_result  # noqa: E402

SAME = ['gpu', 'nvidia_driver', 'cascade_commit', 'cccl', 'cuda_runtime']


def merge(docs, runs, commits_differ=False):
    out = json.loads(json.dumps(docs[0]))
    env = out['environment']
    same = [k for k in SAME if not (commits_differ and k == 'cascade_commit')]
    for doc in docs[1:]:
        other = doc['environment']
        for key in same:
            if other.get(key) != env.get(key):
                raise ValueError('%s differs: %r and %r' % (key, env.get(key), other.get(key)))
        names = {b['name']: b for b in out['nvbench']['benchmarks']}
        for bench in doc['nvbench']['benchmarks']:
            if bench['name'] in names:
                names[bench['name']]['states'].extend(bench['states'])
            else:
                out['nvbench']['benchmarks'].append(bench)
                names[bench['name']] = bench
        out['notes'].extend(doc.get('notes', []))
        if other.get('date') and other['date'] != env.get('date'):
            env['date'] = max(env.get('date') or '', other['date'])
    env['runs'] = runs
    if commits_differ:
        env['run_commits'] = [d['environment'].get('cascade_commit') for d in docs]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('out')
    ap.add_argument('files', nargs='+')
    ap.add_argument('--runs', required=True, help='what the invocations were, in order')
    ap.add_argument('--commits-differ', action='store_true',
                    help='merge files of different commits (--runs says why their units are the same code)')
    args = ap.parse_args()
    docs = [load_result(f) for f in args.files]
    if any('nvbench' not in d for d in docs):
        print('results_merge.py: not all files are of an NVBench program', file=sys.stderr)
        return 2
    try:
        doc = merge(docs, args.runs, args.commits_differ)
    except ValueError as e:
        print('results_merge.py: %s' % e, file=sys.stderr)
        return 2
    with open(args.out, 'w') as f:
        json.dump(doc, f, indent=1)
        f.write('\n')
    print('wrote %s: %d benchmarks from %d files' % (args.out, len(doc['nvbench']['benchmarks']), len(docs)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
