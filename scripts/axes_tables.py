#!/usr/bin/env python3
"""Markdown tables of the axis reductions: cascade-axes's results beside PyTorch's, CuPy's and JAX's
(scripts/axes_rivals.py), one table a family (columns, rows, dims02, moments), a row a shape, and
under each the bar that family is held to, met or missed, with its numbers.

    python3 scripts/axes_tables.py CASCADE.json[.xz] RIVALS.json[.xz]
    python3 scripts/axes_tables.py CASCADE.json RIVALS.json --plot axes.png   # also a bar chart
    python3 scripts/axes_tables.py CASCADE.json RIVALS.json --merge BOTH.json # one file: the rivals' inside
    python3 scripts/axes_tables.py BOTH.json[.xz]                             # (its "rivals" key)

Reads both layouts of cascade-axes's results (results_io.rows_of): the old program's rows, and the NVBench
program's states (scripts/nvbench-run.sh), whose read ceiling comes with each row (ceiling_hot_us,
ceiling_cold_us) and whose launch-included figure is NVBench's batch time (batch_us; the old files'
hot_idle_us is gone); the column and the note name whichever the file holds.

Columns: cascade's default hot us (launch included, hot_idle or batch, in parentheses), its cold GB/s and
that as a share of the read ceiling's cold GB/s (a streaming kernel over the same bytes); per rival
library, its hot us and rival / cascade (above 1: cascade is faster); for rows also
cascade::batched_reduce_into's. A figure that disagreed with its float64 check is marked "!"; a
missing one is "-". --plot FILE draws hot GB/s per case and library (needs matplotlib).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_io import load_result, meta_of, rows_of  # noqa: E402

FAMILIES = ['columns', 'rows', 'dims02', 'moments']
TITLES = {'columns': 'sums along axis 0 of a row-major matrix (column sums)',
          'rows': 'sums along axis 1 of a row-major matrix (row sums)',
          'dims02': 'sums over axes (0, 2) of a C-ordered 3-D tensor',
          'moments': 'var_mean: of all items, and along dim 0 of a matrix'}
KNOWN_RIVALS = ['torch', 'cupy', 'jax']


def pow2(n):
    return '2^%d' % (n.bit_length() - 1) if n >= 8192 and n & (n - 1) == 0 else str(n)


def shape_text(shape, all_items=False):
    text = ' x '.join(pow2(int(s)) for s in shape)
    return text + ' (all)' if all_items and len(shape) > 1 else text


def us_text(v):
    return '-' if v is None else ('%.1f' % v if v >= 10 else '%.2f' % v)


def num(v, spec):
    return '-' if v is None else format(v, spec)


def is_all_items(r):
    axes = r.get('axes')
    return axes is not None and len(axes) == len(r['shape'])


def is_batched(r):
    return 'batched' in r.get('name', '') or str(r.get('policy', '')).startswith('batched')


def is_default(r):
    return (r.get('library', 'cascade') == 'cascade' and not is_batched(r)
            and (r.get('policy') == 'default' or r.get('name', '').endswith('(default)')))


def rows_of_file(doc):
    """A results file's rows, either layout; an NVBench file's read ceilings (each timing row carries its
    case's) as rows of kind 'ceiling', one a family, shape and axes, as the old files hold them."""
    if not doc or ('rows' not in doc and 'nvbench' not in doc):
        return []
    rows = rows_of(doc)
    if 'nvbench' not in doc:
        return rows
    seen = set()
    for r in list(rows):
        key = (r.get('family'), tuple(r.get('shape') or ()), tuple(r.get('axes') or ()))
        if r.get('kind') != 'timing' or key in seen or r.get('ceiling_cold_us') is None:
            continue
        seen.add(key)
        rows.append({'kind': 'ceiling', 'family': r['family'], 'shape': r.get('shape'), 'axes': r.get('axes'),
                     'item': r.get('item'), 'items': r.get('items'), 'outputs': r.get('outputs'),
                     'bytes': r.get('bytes'), 'hot_us': r.get('ceiling_hot_us'), 'cold_us': r.get('ceiling_cold_us')})
    return rows


def launch_key(rows):
    """The launch-included figure the rows hold: the old files' hot_idle_us, else NVBench's batch_us."""
    return 'hot_idle_us' if any('hot_idle_us' in r for r in rows) else 'batch_us'


def gbps_of(r, which):
    """A row's hot or cold GB/s: its own figure, else its bytes over its time."""
    if r is None:
        return None
    v = r.get(which + '_gbps')
    if v is None and r.get(which + '_us') and r.get('bytes'):
        v = r['bytes'] / r[which + '_us'] / 1e3
    return v


class Table:
    """Rows of one family, found by shape; where no shape matches, by the item count and whether all
    items are reduced (ceiling rows: by bytes), so that a 1-D and an N-D description of one case meet."""

    def __init__(self, rows):
        self.rows = rows

    def find(self, family, case, pred):
        cands = [r for r in self.rows if r.get('family') == family and pred(r)]
        for r in cands:
            if list(r['shape']) == list(case['shape']):
                return r
        for r in cands:
            if case['all'] and r.get('axes') is not None and is_all_items(r) and r.get('items') == case.get('items'):
                return r
        for r in cands:
            if r.get('axes') is None and r.get('bytes') == case.get('bytes'):
                return r
        return None


def cases_of(family, *row_lists):
    """The family's cases in order of first appearance: the cascade file's first, then the rivals'."""
    seen, out = set(), []
    for rows in row_lists:
        for r in rows:
            if r.get('family') != family or r.get('kind') != 'timing':
                continue
            key = tuple(r['shape'])
            alt = ('all items', r.get('items')) if is_all_items(r) else key
            if key in seen or alt in seen:
                continue
            seen.update([key, alt])
            out.append({'shape': list(r['shape']), 'items': r.get('items'), 'bytes': r.get('bytes'),
                        'all': is_all_items(r), 'axes': r.get('axes')})
    return out


def ratio(rival, base):
    if rival is None or base is None or not rival.get('hot_us') or not base.get('hot_us'):
        return None
    return rival['hot_us'] / base['hot_us']


def mark(r):
    return ' !' if r is not None and r.get('hot_us') is not None and r.get('agrees') is False else ''


def check(label, value, threshold, unit=''):
    """(text, state): state True met, False missed, None no figure."""
    if value is None:
        return '%s -' % label, None
    text = ('%s %.0f%%' % (label, value)) if unit == '%' else ('%s %.2f' % (label, value))
    if value < threshold:
        text += ' (< %s%s)' % (('%g' % threshold), unit)
        return text, False
    return text, True


def verdict(states):
    if any(s is False for s in states):
        return 'missed'
    if any(s is None for s in states) or not states:
        return 'unchecked (figures missing)'
    return 'met'


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('cascade', metavar='CASCADE.json', help="cascade-axes's results (.xz too)")
    parser.add_argument('rivals', metavar='RIVALS.json', nargs='?',
                        help="scripts/axes_rivals.py's results (.xz too); left out: CASCADE.json's \"rivals\"")
    parser.add_argument('--plot', metavar='FILE', help='also draw hot GB/s per case and library to FILE (png)')
    parser.add_argument('--merge', metavar='FILE', help='also write CASCADE.json with RIVALS.json inside, as "rivals"')
    args = parser.parse_args()

    cdoc = load_result(args.cascade)
    rdoc = load_result(args.rivals) if args.rivals else cdoc.get('rivals', {})
    if args.merge:
        import json
        merged = dict(cdoc, rivals=rdoc)
        with open(args.merge, 'w') as f:
            f.write(json.dumps({k: v for k, v in merged.items() if k not in ('rows', 'rivals')})[:-1])
            if 'rows' in merged:  # (an NVBench file's states stay under its "nvbench")
                f.write(', "rows": [\n' + ',\n'.join(json.dumps(r) for r in merged['rows']) + '\n]')
            f.write(', "rivals": ' + json.dumps({k: v for k, v in rdoc.items() if k != 'rows'})[:-1])
            f.write(', "rows": [\n' + ',\n'.join(json.dumps(r) for r in rdoc.get('rows', [])) + '\n]}}\n')
    crows = rows_of_file(cdoc)
    ctimings = [r for r in crows if r.get('kind', 'timing') == 'timing']
    ceilings = [r for r in crows if r.get('kind') == 'ceiling']
    rrows = [r for r in rows_of_file(rdoc) if r.get('kind', 'timing') == 'timing' and r.get('library') != 'cascade']
    present = {r.get('library') for r in rrows}
    rivals = [k for k in KNOWN_RIVALS if k in present] + sorted(x for x in present if x not in KNOWN_RIVALS and x)
    host_clock = {r['library'] for r in rrows if r.get('clock') == 'host'}
    ct, rt, cl = Table(ctimings), Table(rrows), Table(ceilings)
    launch = launch_key(ctimings)
    launch_name = launch[:-len('_us')]

    v = rdoc.get('versions', {})
    cmeta = meta_of(cdoc)
    print('cascade: %s, driver %s, CCCL %s, commit %s, %s' % (
        cmeta.get('gpu', '?'), cmeta.get('nvidia_driver', '?'), cmeta.get('cccl', '?'),
        cmeta.get('cascade_commit', '?'), cmeta.get('date', '?')))
    print('rivals: %s, driver %s, %s, %s' % (
        rdoc.get('gpu', '?'), rdoc.get('nvidia_driver', '?'),
        ', '.join('%s %s' % (k, v[k]) for k in ['torch', 'cupy', 'jax'] if v.get(k)) or 'no library',
        rdoc.get('date', '?')))
    if rdoc.get('missing'):
        print('missing from the rivals run: %s' % ', '.join(sorted(rdoc['missing'])))
    if cmeta.get('gpu') and rdoc.get('gpu') and cmeta['gpu'] != rdoc['gpu']:
        print('**warning: the two files come from different GPUs (%s, %s)**' % (cmeta['gpu'], rdoc['gpu']))
    print()
    print('hot us: CUDA events, the call queued behind a spin (launch excluded); in parentheses ' +
          ('hot_idle, the launch included' if launch == 'hot_idle_us' else
           "NVBench's batch (the mean of back-to-back launches: launch included; the old hot_idle is gone)") +
          '. x: rival hot us / cascade hot us (above 1: cascade is faster). ! : disagreed with '
          'its float64 check.' + (' %s: host clock (launch and wait included), so its x flatters cascade.' %
                                  ', '.join(sorted(host_clock)) if host_clock else ''))

    plot_groups = []
    for family in FAMILIES:
        cases = cases_of(family, ctimings, rrows)
        if not cases:
            continue
        batched = family == 'rows'
        head = ['shape', 'cascade hot us (%s)' % launch_name, 'cold GB/s', 'of ceiling']
        for lib in rivals:
            head += ['%s hot us%s' % (lib, ' (host)' if lib in host_clock else ''), '%s x' % lib]
        if batched:
            head += ['batched hot us', 'batched x']
        print()
        print('### %s: %s' % (family, TITLES[family]))
        print()
        print('| ' + ' | '.join(head) + ' |')
        print('|' + '---|' * len(head))
        states, notes = [], []
        for case in cases:
            d = ct.find(family, case, is_default)
            b = ct.find(family, case, is_batched) if batched else None
            c = cl.find(family, case, lambda r: True)
            cold = gbps_of(d, 'cold')
            ceil = gbps_of(c, 'cold')
            pct = 100.0 * cold / ceil if cold and ceil else None
            hot = ('-' if d is None or d.get('hot_us') is None else
                   '%s (%s)%s' % (us_text(d['hot_us']), us_text(d.get(launch)), mark(d)))
            label = shape_text(case['shape'], case['all'])
            if family == 'moments' and not case['all'] and case.get('axes') is not None:
                label += ', dim %s' % ','.join(str(a) for a in case['axes'])
            cells = [label, hot, num(cold, '.0f'), num(pct, '.0f') + ('%' if pct is not None else '')]
            ratios = {}
            group = {'label': '%s\n%s' % (family, label), 'values': {}, 'ceiling': gbps_of(c, 'hot')}
            group['values']['cascade'] = gbps_of(d, 'hot')
            for lib in rivals:
                r = rt.find(family, case, lambda x, lib=lib: x.get('library') == lib)
                ratios[lib] = ratio(r, d)
                cells += [us_text(r.get('hot_us') if r else None) + mark(r), num(ratios[lib], '.2f')]
                group['values'][lib] = gbps_of(r, 'hot')
            if batched:
                ratios['batched'] = ratio(b, d)
                cells += [us_text(b.get('hot_us') if b else None) + mark(b), num(ratios['batched'], '.2f')]
                group['values']['batched'] = gbps_of(b, 'hot')
            print('| ' + ' | '.join(cells) + ' |')
            plot_groups.append(group)

            checks = []
            if family == 'columns' and (case.get('items') or 0) >= 2**26:
                checks = [check('ceiling', pct, 90, '%'), check('torch', ratios.get('torch'), 1.2),
                          check('cupy', ratios.get('cupy'), 1.2)]
            elif family == 'rows':
                checks = [check('torch', ratios.get('torch'), 1.0), check('batched', ratios.get('batched'), 0.98)]
            elif family == 'dims02':
                checks = [check('torch', ratios.get('torch'), 1.2)]
            elif family == 'moments' and case['all']:
                checks = [check('ceiling', pct, 95, '%'), check('torch', ratios.get('torch'), 1.5)]
            elif family == 'moments':
                checks = [check('torch', ratios.get('torch'), 1.2)]
            if checks:
                states += [s for _, s in checks]
                notes.append('%s: %s' % (label, ', '.join(t for t, _ in checks)))
        bar = {'columns': 'at >= 2^26 items, >= 90% of the ceiling and x >= 1.2 against torch and cupy',
               'rows': 'x >= 1.0 against torch; against batched_reduce_into, the same kernels, x >= 0.98 (run-to-run noise)',
               'dims02': 'x >= 1.2 against torch',
               'moments': 'all items: >= 95% of the ceiling and x >= 1.5 against torch; dim 0: x >= 1.2 against torch'}
        print()
        print('Bar (%s): **%s**. %s' % (bar[family], verdict(states), '; '.join(notes) if notes else 'no case to check'))

    sweep_table(ctimings)

    if args.plot:
        plot(plot_groups, ['cascade'] + (['batched'] if any('batched' in g['values'] for g in plot_groups) else [])
             + rivals, host_clock, args.plot, cmeta.get('gpu') or rdoc.get('gpu') or '')
    return 0


def sweep_table(timings):
    """The default's hot us against the fastest of the other owners the sweep timed, a row a case."""
    cases = {}
    for r in timings:
        if r.get('family') == 'sweep':
            cases.setdefault((tuple(r['shape']), tuple(r['axes'])), []).append(r)
    if not cases:
        return
    print()
    print('### sweep: the default against every owner that fits (column and row sums of 2^22 and 2^26 floats)')
    print()
    print('| shape | axis | default hot us | fastest other | its hot us | default / fastest |')
    print('|---|---|---|---|---|---|')
    within, over = 0, []
    for (shape, axes), rs in sorted(cases.items(), key=lambda kv: (kv[0][1], shape_items(kv[0][0]), -kv[0][0][1])):
        d = next((r for r in rs if r.get('policy') == 'default'), None)
        others = [r for r in rs if r.get('policy') != 'default' and r.get('hot_us')]
        if d is None or not others:
            continue
        best = min(others, key=lambda r: r['hot_us'])
        q = d['hot_us'] / best['hot_us']
        label = shape_text(list(shape))
        print('| %s | %d | %s | %s | %s | %.2f |' % (label, axes[0], us_text(d['hot_us']), best['name'],
                                                     us_text(best['hot_us']), q))
        if q <= 1.05:
            within += 1
        else:
            over.append('%s axis %d (%.2f)' % (label, axes[0], q))
    print()
    print('The default is within 5%% of the fastest at %d of %d cases%s.' % (
        within, within + len(over), '; above it: ' + ', '.join(over) if over else ''))


def shape_items(shape):
    n = 1
    for e in shape:
        n *= e
    return n


def plot(groups, libraries, host_clock, path, gpu):
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        print('\n(no plot: matplotlib is not installed)', file=sys.stderr)
        return
    if not groups:
        print('\n(no plot: no cases)', file=sys.stderr)
        return
    width = 0.8 / len(libraries)
    fig, ax = plt.subplots(figsize=(max(8, 1.3 * len(groups)), 5))
    for k, lib in enumerate(libraries):
        xs = [i - 0.4 + width * (k + 0.5) for i in range(len(groups))]
        ys = [g['values'].get(lib) or 0 for g in groups]
        label = {'cascade': 'cascade (default)', 'batched': 'cascade::batched_reduce_into'}.get(lib, lib)
        ax.bar(xs, ys, width, label=label + (' (host clock)' if lib in host_clock else ''))
    first = True
    for i, g in enumerate(groups):
        if g['ceiling']:
            ax.hlines(g['ceiling'], i - 0.45, i + 0.45, colors='black', linestyles='dashed',
                      label='read ceiling' if first else None)
            first = False
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels([g['label'] for g in groups], fontsize=7)
    ax.set_ylabel('hot GB/s (input bytes / hot time)')
    ax.set_title('Axis reductions, float32%s' % (', ' + gpu if gpu else ''))
    ax.legend(fontsize=8, ncol=min(len(libraries) + 1, 6), loc='upper center', bbox_to_anchor=(0.5, -0.14))
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print('\nwrote %s' % path, file=sys.stderr)


if __name__ == '__main__':
    sys.exit(main())
