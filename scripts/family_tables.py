#!/usr/bin/env python3
"""docs/algorithms.md's tables from a cascade-family run (bench/family.cu): per algorithm, item type
and size, the hot GPU time of cascade's _into call, of cascade's reduce_into over the same bytes and of
CUB's nearest call, with the ratios (time / cascade's: above 1 is cascade faster), and the host-returning
forms against Thrust's (launch included, host clock); any_of by the position of the first hit; the
device-held count against a graph captured per size (doc_examples.py checks the page's rows against
what this prints).

    python3 scripts/family_tables.py RUN.json[.xz]              # the algorithms' table
    python3 scripts/family_tables.py RUN.json[.xz] --any-of     # any_of by the first hit
    python3 scripts/family_tables.py RUN.json[.xz] --held       # device_count against per-size graphs
    python3 scripts/family_tables.py RUN.json[.xz] --by-key     # reduce_by_key against CUB and Thrust
"""
import sys

from results_io import load_result, meta_of, rows_of

doc = load_result(sys.argv[1])
rows = [r for r in rows_of(doc) if r.get('kind') == 'timing']  # the old file's rows or the NVBench layout's
nvbench = 'nvbench' in doc


def incl_us(r):
    """The launch-included time. The old files' hot_idle_us; the NVBench layout has none. There a
    host-returning call's hot_us is the host clock's, device idle first (what hot_idle_us was for such a
    call), and a device call's stand-in is NVBench's batch_us (launches back to back: launch overhead
    included, though hidden behind the previous call's work rather than taken from an idle GPU)."""
    if 'hot_idle_us' in r:
        return r['hot_idle_us']
    return r['hot_us'] if r.get('clock', r.get('hot_clock')) == 'host' else r['batch_us']


def pow2(n):
    return '2^%d' % (n.bit_length() - 1) if n and n & (n - 1) == 0 else str(n)


def find(family, config, item, n, prefix, exact=False):
    for r in rows:
        if (r['family'], r['config'], r['item'], r['n']) == (family, config, item, n) and (
                r['name'] == prefix if exact else r['name'].startswith(prefix)):
            return r
    return None


def key_rows(family):
    seen = []
    for r in rows:
        k = (r['config'], r['item'], r['n'])
        if r['family'] == family and k not in seen:
            seen.append(k)
    return seen


if '--by-key' in sys.argv:
    peak = meta_of(doc).get('memory_gbs')  # the peak memory bandwidth; absent: the share column shows '-'
    print('| runs | n | cascade hot us | CUB hot us | CUB / cascade | Thrust / cascade (to host) | cascade GB/s '
          '(pairs read, runs written) | of the %s GB/s peak |' % (peak or '?'))
    print('|---|---|---|---|---|---|---|---|')
    for config, item, n in key_rows('reduce_by_key'):
        c, h = (next(x for x in rows if (x['family'], x['config'], x['n'], x['name']) == ('reduce_by_key', config, n, name))
                for name in ('cascade::reduce_by_key_into', 'cascade::reduce_by_key'))
        u = find('reduce_by_key', config, item, n, 'cub::')
        t = find('reduce_by_key', config, item, n, 'thrust::')
        moved = 8.0 * n + 8.0 * float(c['result'])  # 4-byte keys and values in, a key and a value a run out
        gbps = moved / c['hot_us'] / 1e3
        print('| %s | %s | %.1f | %.1f | %.3f | %.2f | %.0f | %s |' % (
            config, pow2(n), c['hot_us'], u['hot_us'], u['hot_us'] / c['hot_us'], incl_us(t) / incl_us(h),
            gbps, '%.0f%%' % (100.0 * gbps / peak) if peak else '-'))
elif '--held' in sys.argv:
    incl = 'batch' if nvbench else 'incl.'  # see incl_us
    print('| n | held graph hot us | per-size graph hot us | difference | held graph %s us | per-size graph %s us |'
          % (incl, incl))
    print('|---|---|---|---|---|---|')
    for config, item, n in key_rows('device_count'):
        h = find('device_count', config, item, n, 'graph: reduce_into(device_count')
        p = find('device_count', config, item, n, 'graph: reduce_into(d, d + n)')
        print('| %s | %.2f | %.2f | %+.2f | %.2f | %.2f |' % (pow2(n), h['hot_us'], p['hot_us'], h['hot_us'] - p['hot_us'],
                                                        incl_us(h), incl_us(p)))
elif '--any-of' in sys.argv:
    print('| first hit | n | any_of_into hot us | full reduce hot us | any_of / reduce | cascade::any_of incl. us | '
          'thrust::any_of incl. us | Thrust / cascade |')
    print('|---|---|---|---|---|---|---|---|')
    for config, item, n in key_rows('any_of'):
        a = find('any_of', config, item, n, 'cascade::any_of_into')
        f = find('any_of', config, item, n, 'cascade::reduce_into')
        h = find('any_of', config, item, n, 'cascade::any_of', exact=True)  # not any_of_into
        t = find('any_of', config, item, n, 'thrust::any_of')
        print('| %s | %s | %.1f | %.1f | %.3f | %.1f | %.1f | %.2f |' % (
            config, pow2(n), a['hot_us'], f['hot_us'], a['hot_us'] / f['hot_us'], incl_us(h), incl_us(t),
            incl_us(t) / incl_us(h)))
else:
    print('| call | items | n | cascade hot us | reduce, same bytes | reduce / cascade | CUB hot us | CUB / cascade | '
          'Thrust / cascade (to host) |')
    print('|---|---|---|---|---|---|---|---|---|')
    for family in ['count', 'count_if', 'inner_product', 'min_element', 'max_element', 'minmax_element']:
        for config, item, n in key_rows(family):
            c = find(family, config, item, n, 'cascade::' + family + '_into')
            r = find(family, config, item, n, 'cascade::reduce_into')
            u = find(family, config, item, n, 'cub::')
            h = next(x for x in rows if (x['family'], x['config'], x['item'], x['n'], x['name']) ==
                     (family, config, item, n, 'cascade::' + family))
            t = find(family, config, item, n, 'thrust::')
            print('| %s %s | %s | %s | %.2f | %.2f | %.3f | %.2f | %.3f | %.2f |' % (
                family, config, item, pow2(n), c['hot_us'], r['hot_us'], r['hot_us'] / c['hot_us'], u['hot_us'],
                u['hot_us'] / c['hot_us'], incl_us(t) / incl_us(h)))
