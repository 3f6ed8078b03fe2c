#!/usr/bin/env python3
"""cascade's layers, as docs/design.md draws them: each folder's headers include only what sits at its
level or below. Reads the #include "..." lines of include/cascade (no compiler needed).
  detail/   never tuning/, default_policy.cuh, tuned_policy.cuh, the entry points, a registry, or a
            tree, finish or segment owner other than their tag.cuh;
  tree/     never finish/, tuning/, the tuned policies or the entry points;
  segment/  as tree/;
  finish/   never tuning/, the tuned policies or the entry points;
  tuning/   never the tuned policies or the entry points;
  reduce.cuh (the entry points for a policy the caller names) never tuning/ or the tuned policies;
  tuned_policy.cuh (one table) never default_policy.cuh or tuning/gpus.cuh (every table);
  only distributed/ and distributed.cuh include distributed/ (it needs NCCL, which the rest does not).
Usage: layers.py <include dir>"""
import os, re, sys

root = os.path.join(sys.argv[1], 'cascade')
entry_points = {'reduce.cuh', 'default_policy.cuh', 'tuned_policy.cuh', 'arg_reduce.cuh', 'transform_reduce.cuh', 'prepare.cuh',
                'cross_check.cuh', 'presets.cuh', 'cascade.cuh', 'segmented_reduce.cuh', 'segmented_arg_reduce.cuh',
                'segmented_transform_reduce.cuh'}


def forbidden(header, target):
    """Why `header` (relative to include/cascade) may not include `target` (normalized), or None."""
    folder = header.split('/')[0] if '/' in header else ''
    top = target if '/' not in target else None
    if folder == 'detail':
        if target.startswith('tuning/') or top in entry_points:
            return 'detail/ sits below tuning and the entry points'
        if target.endswith('/all.cuh'):
            return 'detail/ never pulls in a whole registry'
        if target.startswith(('tree/', 'finish/', 'segment/')) and not target.endswith('/tag.cuh'):
            return 'detail/ knows strategies only through their tag.cuh'
    if folder == 'tree':
        if target.startswith(('finish/', 'tuning/')) or top in entry_points:
            return 'trees sit below finishes, tuning and the entry points'
    if folder == 'segment':
        if target.startswith(('finish/', 'tuning/')) or top in entry_points:
            return 'segment owners sit below finishes, tuning and the entry points'
    if folder == 'finish':
        if target.startswith('tuning/') or top in entry_points:
            return 'finishes sit below tuning and the entry points'
    if folder == 'tuning':
        if top in entry_points:
            return 'tuning sits below the entry points'
    if target.startswith('distributed/') and not (folder == 'distributed' or header == 'distributed.cuh'):
        return 'distributed/ needs NCCL: only distributed.cuh includes it'
    if header == 'reduce.cuh' and (target.startswith('tuning/') or target in ('default_policy.cuh', 'tuned_policy.cuh')):
        return 'reduce.cuh serves named policies; the tuned policies sit above it'
    if header == 'tuned_policy.cuh' and target in ('default_policy.cuh', 'tuning/gpus.cuh'):
        return 'tuned_policy.cuh runs one table; default_policy.cuh, above it, picks among them all'
    return None


passed = failed = 0
for dirpath, _, files in sorted(os.walk(root)):
    for f in sorted(files):
        if not f.endswith('.cuh'):
            continue
        path = os.path.join(dirpath, f)
        header = os.path.relpath(path, root)
        bad = []
        for m in re.finditer(r'^#include "([^"]+)"', open(path).read(), re.M):
            target = os.path.relpath(os.path.normpath(os.path.join(os.path.dirname(path), m.group(1))), root)
            why = forbidden(header, target)
            if why:
                bad.append('%s (%s)' % (target, why))
        ok = not bad
        passed += ok
        failed += not ok
        if not ok:
            print('[FAIL] %s includes %s' % (header, '; '.join(bad)))
print('%d headers checked' % (passed + failed))
print('[doctest] test cases: %d | %d passed | %d failed | 0 skipped' % (passed + failed, passed, failed))
sys.exit(1 if failed else 0)
