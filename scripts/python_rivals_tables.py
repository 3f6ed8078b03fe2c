#!/usr/bin/env python3
"""Markdown tables of cascade against PyTorch, CuPy and JAX, from scripts/python_rivals.py's results:
cascade's rows in the same file (its calls ran in the same process, in alternating rounds with the
libraries'), or, given two files, cascade-rivals' default_policy rows (and cascade-segmented's) beside
the Python file's, run one after the other.

    python3 scripts/python_rivals_tables.py PYTHON.json                             # the summary
    python3 scripts/python_rivals_tables.py PYTHON.json --config float-plus          # or argmin/float
    python3 scripts/python_rivals_tables.py PYTHON.json --bar                        # exit 1 if missed
    python3 scripts/python_rivals_tables.py RIVALS.json PYTHON.json [--config ...]   # cascade from RIVALS
    python3 scripts/python_rivals_tables.py SEGMENTED.json PYTHON.json --segmented

Ratios are the library's time / cascade's (above 1: cascade is faster), hot (GPU time, the launch
excluded) and cold (L2 flushed), at the same size, item type and op. JAX is timed by the host clock
(launch, dispatch and wait included: it hides its stream), so its hot figure is set against
cascade's hot GPU time, which flatters JAX's ratio nowhere and cascade's at small sizes (the dispatch);
the tables mark it "(host)". A result that disagreed with its check is marked "!".
The summary: per configuration, the smallest ratio over the sizes for each library, hot / cold, and
where it is. --config: every size of one configuration. --segmented: 2^26 floats in segments of one
size: cascade's segmented default with device offsets (with and without a segment_lengths hint) and
batched_reduce against torch.segment_reduce, jax.ops.segment_sum and each library's sum of the rows
of the (segments, size) view. --bar: the bar (cascade >= 1.0x every library at every size and
configuration they share, hot and cold), the misses listed.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_io import load_result, rows_of  # noqa: E402

LIBRARIES = ['torch', 'cupy', 'jax']
# cascade's call set against each family's, the first a file has: minmax against torch.aminmax and
# CuPy's and JAX's (min, max), which return the two values, is reduce_fused(minimum, maximum) (the
# values too); minmax_into (the positions besides) in files from before that row.
CASCADE_NAMES = {'reduce': ['cascade::reduce_into(default_policy)'], 'argmin': ['cascade::argmin_into(default_policy)'],
                 'argmax': ['cascade::argmax_into(default_policy)'],
                 'minmax': ['cascade::reduce_fused_into(default_policy, minimum, maximum)',
                            'cascade::minmax_into(default_policy)']}
FAMILY_ORDER = ['reduce', 'argmin', 'argmax', 'minmax']


def pow2(n):
    return '2^%d' % (n.bit_length() - 1) if n >= 1024 and n & (n - 1) == 0 else str(n)


def ratio_text(v):
    return '-' if v is None else '%.2fx' % v


def us_text(v):
    return '-' if v is None else ('%.1f' % v if v >= 10 else '%.2f' % v)


def cascade_rows(doc):
    """{(family, config, n): row} of cascade's default_policy in a cascade-rivals file."""
    out = {}
    for r in rows_of(doc):
        names = CASCADE_NAMES.get(r.get('family'), [])
        if r.get('kind') != 'timing' or r.get('name') not in names:
            continue
        key = (r['family'], r['config'], r['n'])
        if key not in out or names.index(r['name']) < names.index(out[key]['name']):
            out[key] = r
    return out


def same_run_rows(doc):
    """{(family, config, n): row} of cascade's own rows in a scripts/python_rivals.py file."""
    return {(r['family'], r['config'], r['n']): r for r in doc['rows']
            if r.get('kind') == 'timing' and r.get('library') == 'cascade' and r.get('hot_us') is not None}


def python_rows(doc):
    """{(family, config, n, segment_size): {library: row}}."""
    out = {}
    for r in doc['rows']:
        if r.get('kind') != 'timing':
            continue
        out.setdefault((r['family'], r['config'], r['n'], r.get('segment_size', 0)), {})[r['library']] = r
    return out


def ratio(lib_row, cascade_us, mode):
    v = lib_row.get(mode + '_us') if lib_row else None
    return None if v is None or not cascade_us else v / cascade_us


def mark(r):
    return '' if r is None or (r.get('agrees') and not r.get('error')) else '!'


def comparisons(cas, py):
    """(family, config, n, library, hot ratio, cold ratio, python row) for every pair the two share."""
    out = []
    for (family, config, n), c in sorted(cas.items(), key=lambda kv: (FAMILY_ORDER.index(kv[0][0]), kv[0][1], kv[0][2])):
        libs = py.get((family, config, n, 0), {})
        for lib in LIBRARIES:
            r = libs.get(lib)
            if r is None or r.get('hot_us') is None:
                continue
            out.append((family, config, n, lib, ratio(r, c['hot_us'], 'hot'), ratio(r, c['cold_us'], 'cold'), r))
    return out


def summary(cas, py):
    print('| family | configuration | sizes | vs torch (hot / cold) | vs CuPy (hot / cold) | vs JAX (host) |')
    print('|---|---|---|---|---|---|')
    rows = comparisons(cas, py)
    keys = sorted({(f, c) for f, c, *_ in rows}, key=lambda k: (FAMILY_ORDER.index(k[0]), k[1]))
    for family, config in keys:
        mine = [r for r in rows if r[0] == family and r[1] == config]
        sizes = sorted({r[2] for r in mine})
        cells = []
        for lib in LIBRARIES:
            lib_rows = [r for r in mine if r[3] == lib]
            if not lib_rows:
                cells.append('-')
                continue
            hot = min(lib_rows, key=lambda r: r[4] if r[4] is not None else 1e30)
            cold = min(lib_rows, key=lambda r: r[5] if r[5] is not None else 1e30)
            bad = '!' if any(mark(r[6]) for r in lib_rows) else ''
            if lib == 'jax':
                cells.append('%s at %s%s' % (ratio_text(hot[4]), pow2(hot[2]), bad))
            else:
                cells.append('%s at %s / %s at %s%s' % (ratio_text(hot[4]), pow2(hot[2]), ratio_text(cold[5]),
                                                        pow2(cold[2]), bad))
        print('| %s | %s | %s..%s | %s |' % (family, config, pow2(sizes[0]), pow2(sizes[-1]), ' | '.join(cells)))


def one_config(cas, py, config):
    family, _, config = config.rpartition('/')
    family = family or 'reduce'
    print('| items | cascade hot / cold us | torch hot / cold us | ratio | CuPy hot / cold us | ratio | '
          'JAX (host) us | ratio |')
    print('|---|---|---|---|---|---|---|---|')
    for (fam, cfg, n), c in sorted(cas.items(), key=lambda kv: kv[0][2]):
        if cfg != config or family != fam:
            continue
        libs = py.get((fam, cfg, n, 0), {})
        cells = ['%s / %s' % (us_text(c['hot_us']), us_text(c['cold_us']))]
        for lib in LIBRARIES:
            r = libs.get(lib)
            if lib == 'jax':
                cells += ['%s%s' % (us_text(r and r.get('hot_us')), mark(r)), ratio_text(ratio(r, c['hot_us'], 'hot'))]
            else:
                cells += ['%s / %s%s' % (us_text(r and r.get('hot_us')), us_text(r and r.get('cold_us')), mark(r)),
                          '%s / %s' % (ratio_text(ratio(r, c['hot_us'], 'hot')), ratio_text(ratio(r, c['cold_us'], 'cold')))]
        print('| %s | %s |' % (pow2(n), ' | '.join(cells)))


def segmented(seg_doc, py):
    want = {'default': 'cascade default_policy', 'hint': 'cascade default_policy, segment_lengths::about(size)',
            'batched': 'cascade batched_reduce default_policy'}
    cas = {}
    for r in rows_of(seg_doc):
        if r.get('kind') == 'timing' and r.get('lengths') == 'fixed':
            for k, name in want.items():
                if r['name'] == name:
                    cas[(k, r['segment_size'])] = r
    print('| segments of | cascade default / with hint / batched_reduce, hot us | torch.segment_reduce | '
          'torch view sum | CuPy reshape sum | JAX reshape sum (host) | jax.ops.segment_sum (host) |')
    print('|---|---|---|---|---|---|---|')
    for size in sorted({s for _, s in cas}):
        c = {k: cas.get((k, size)) for k in want}
        seg = py.get(('segmented', 'float', 1 << 26, size), {})
        bat = py.get(('batched', 'float', 1 << 26, size), {})

        def cell(r, against):
            if r is None or r.get('hot_us') is None or against is None:
                return '-'
            return '%s (%s)%s' % (us_text(r['hot_us']), ratio_text(r['hot_us'] / against['hot_us']), mark(r))
        best = c['hint'] or c['default']
        print('| %s | %s / %s / %s | %s | %s | %s | %s | %s |' % (
            pow2(size), us_text(c['default'] and c['default']['hot_us']), us_text(c['hint'] and c['hint']['hot_us']),
            us_text(c['batched'] and c['batched']['hot_us']), cell(seg.get('torch'), best),
            cell(bat.get('torch'), c['batched']), cell(bat.get('cupy'), c['batched']), cell(bat.get('jax'), c['batched']),
            cell(seg.get('jax'), best)))
    print()
    print('Ratios: the library\'s hot time / cascade\'s (segment_reduce and segment_sum against the default with '
          'the hint, the row sums against batched_reduce).')


def bar(cas, py):
    rows = comparisons(cas, py)
    misses = [r for r in rows if (r[4] is not None and r[4] < 1.0) or (r[3] != 'jax' and r[5] is not None and r[5] < 1.0)]
    total = len(rows)
    for family, config, n, lib, hot, cold, _ in misses:
        print('miss: %s %s at %s: %s hot %s, cold %s' % (family, config, pow2(n), lib, ratio_text(hot),
                                                          ratio_text(cold) if lib != 'jax' else '(host clock)'))
    print('bar (cascade >= 1.0x torch, CuPy and JAX, hot and cold): %d of %d comparisons met' % (total - len(misses), total))
    return 0 if not misses else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('files', nargs='+', metavar='FILE',
                    help='PYTHON.json, or RIVALS.json (SEGMENTED.json with --segmented) then PYTHON.json')
    ap.add_argument('--config', help='every size of one configuration: float-plus, argmin/float, minmax/int8')
    ap.add_argument('--segmented', action='store_true')
    ap.add_argument('--bar', action='store_true')
    args = ap.parse_args()
    if len(args.files) > 2 or (args.segmented and len(args.files) != 2):
        ap.error('give PYTHON.json, or RIVALS.json (SEGMENTED.json with --segmented) and PYTHON.json')
    pdoc = load_result(args.files[-1])
    cdoc = load_result(args.files[0]) if len(args.files) == 2 else None
    py = python_rows(pdoc)
    if args.segmented:
        segmented(cdoc, py)
        return 0
    cas = cascade_rows(cdoc) if cdoc is not None else same_run_rows(pdoc)
    if args.bar:
        return bar(cas, py)
    if args.config:
        one_config(cas, py, args.config)
    else:
        summary(cas, py)
    return 0


if __name__ == '__main__':
    sys.exit(main())
