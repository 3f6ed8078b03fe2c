#!/usr/bin/env python3
"""cascade's layers, as docs/design.md draws them: each folder's headers include only what sits at its
level or below. Reads the #include "..." lines of include/cascade (no compiler needed). From the bottom:
  detail/meta/     compile-time helpers: includes only detail/meta/;
  the vocabulary   error.cuh, ops.cuh and ops/ (identity, idempotent, indexed, monoid,
                   non_commutative): only
                   detail/meta/ and each other;
  detail/runtime/  host-side services (device, scratch, pinned, stream state, capture): only
                   detail/meta/, detail/runtime/ and error.cuh;
  detail/block/    warp and block primitives: only detail/meta/, detail/block/ and the vocabulary;
  detail/kernel/   the tile loop, its inputs, sinks and kernels: those below, and the strategies' tag.cuh;
  exact/           the exact and binned sums: detail/meta/, block/, kernel/, exact/ and the vocabulary;
  array/           the N-d array views and axis sets: only detail/meta/ and array/;
  tree/, segment/, axis/  never finish/, tuning/, detail/'s dispatch layer, the tuned policies or the
                   entry points;
  finish/          never tuning/, detail/'s dispatch layer, the tuned policies or the entry points;
  detail/          (its own files: the dispatch layer) never tuning/, the entry points, a registry, a
                   tree, finish or segment owner other than their tag.cuh, or exact/ (an op's own
                   accumulator reaches it through detail/meta/accumulator.cuh's hook);
  tuning/          never the tuned policies or the entry points;
  reduce.cuh (the entry points for a policy the caller names) never tuning/ or the tuned policies;
  policy/tuned_policy.cuh (one table) never policy/default_policy.cuh or tuning/gpus.cuh (every table);
  only distributed/ and distributed.cuh include distributed/ (it needs NCCL, which the rest does not).
No folder holds more than 15 files. One test case: the headers that break a rule are listed.
Usage: layers.py <include dir>"""
import os, re, sys

root = os.path.join(sys.argv[1], 'cascade')
entry_points = {'reduce.cuh', 'policy/default_policy.cuh', 'policy/tuned_policy.cuh', 'arg_reduce.cuh', 'transform_reduce.cuh',
                'memory/prepare.cuh', 'cross_check.cuh', 'policy/presets.cuh', 'cascade.cuh', 'segmented_reduce.cuh',
                'segmented_arg_reduce.cuh', 'segmented_transform_reduce.cuh', 'device_values.cuh', 'algorithm/count.cuh',
                'algorithm/element.cuh', 'algorithm/inner_product.cuh', 'algorithm/predicates.cuh',
                'algorithm/reduce_by_key.cuh', 'reduce_axes.cuh'}


vocabulary = {'error.cuh', 'ops.cuh', 'ops/identity.cuh', 'ops/indexed.cuh', 'ops/non_commutative.cuh', 'ops/monoid.cuh',
              'ops/idempotent.cuh'}
tags = {'tree/tag.cuh', 'finish/tag.cuh', 'segment/tag.cuh', 'axis/tag.cuh'}
below = {  # what a lower layer's headers may include: folders (ending in /) and files
    'detail/meta/': {'detail/meta/'},
    'vocabulary': {'detail/meta/'} | vocabulary,
    'detail/runtime/': {'detail/meta/', 'detail/runtime/', 'error.cuh'},
    'detail/block/': {'detail/meta/', 'detail/block/'} | vocabulary,
    'detail/kernel/': {'detail/meta/', 'detail/runtime/', 'detail/block/', 'detail/kernel/'} | vocabulary | tags,
    'exact/': {'detail/meta/', 'detail/block/', 'detail/kernel/', 'exact/'} | vocabulary,
    'array/': {'detail/meta/', 'array/'},
}
dispatch_layer = lambda t: t.startswith('detail/') and t.count('/') == 1


def layer_of(header):
    if header in vocabulary:
        return 'vocabulary'
    return next((l for l in below if l.endswith('/') and header.startswith(l)), None)


def forbidden(header, target):
    """Why `header` (relative to include/cascade) may not include `target` (normalized), or None."""
    layer = layer_of(header)
    if layer and not any(target == b or (b.endswith('/') and target.startswith(b)) for b in below[layer]):
        return '%s may include only %s' % (layer if layer != 'vocabulary' else 'the vocabulary', ', '.join(sorted(below[layer])))
    folder = header.split('/')[0] if '/' in header else ''
    top = target if target in entry_points else None
    if folder in ('tree', 'segment', 'axis', 'finish') and dispatch_layer(target):
        return 'strategies sit below the dispatch layer'
    if folder == 'detail' and dispatch_layer(header):
        if target.startswith('tuning/') or top in entry_points:
            return 'detail/ sits below tuning and the entry points'
        if target.startswith('exact/'):
            return 'detail/ reaches the exact sums only through the accumulator hook (detail/meta/accumulator.cuh)'
        if target.endswith('/all.cuh'):
            return 'detail/ never pulls in a whole registry'
        if target.startswith(('tree/', 'finish/', 'segment/', 'axis/')) and not target.endswith('/tag.cuh'):
            return 'detail/ knows strategies only through their tag.cuh'
    if folder == 'tree':
        if target.startswith(('finish/', 'tuning/')) or top in entry_points:
            return 'trees sit below finishes, tuning and the entry points'
    if folder == 'segment':
        if target.startswith(('finish/', 'tuning/')) or top in entry_points:
            return 'segment owners sit below finishes, tuning and the entry points'
    if folder == 'axis':
        if target.startswith(('finish/', 'tuning/')) or top in entry_points:
            return 'axis owners sit below finishes, tuning and the entry points'
    if folder == 'finish':
        if target.startswith('tuning/') or top in entry_points:
            return 'finishes sit below tuning and the entry points'
    if folder == 'tuning':
        if top in entry_points:
            return 'tuning sits below the entry points'
    if target.startswith('distributed/') and not (folder == 'distributed' or header == 'distributed.cuh'):
        return 'distributed/ needs NCCL: only distributed.cuh includes it'
    if header == 'reduce.cuh' and (target.startswith('tuning/') or target in ('policy/default_policy.cuh', 'policy/tuned_policy.cuh')):
        return 'reduce.cuh serves named policies; the tuned policies sit above it'
    if header == 'policy/tuned_policy.cuh' and target in ('policy/default_policy.cuh', 'tuning/gpus.cuh'):
        return 'policy/tuned_policy.cuh runs one table; policy/default_policy.cuh, above it, picks among them all'
    return None


checked, broken = 0, []
MAX_FILES = 15  # a folder that outgrows this wants splitting by concept (docs/design.md's layout)
for dirpath, _, files in sorted(os.walk(root)):
    if len(files) > MAX_FILES:
        broken.append('%s holds %d files, over %d: split it by concept' % (os.path.relpath(dirpath, os.path.dirname(root)), len(files), MAX_FILES))
    for f in sorted(files):
        if not f.endswith('.cuh'):
            continue
        path = os.path.join(dirpath, f)
        header = os.path.relpath(path, root)
        checked += 1
        for m in re.finditer(r'^#include "([^"]+)"', open(path).read(), re.M):
            target = os.path.relpath(os.path.normpath(os.path.join(os.path.dirname(path), m.group(1))), root)
            why = forbidden(header, target)
            if why:
                broken.append('%s includes %s (%s)' % (header, target, why))
print('%d headers checked' % checked)
for b in broken:
    print('[FAIL] ' + b)
ok = not broken
print('[doctest] test cases: 1 | %d passed | %d failed | 0 skipped' % (ok, not ok))
sys.exit(0 if ok else 1)
