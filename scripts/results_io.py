"""Reads results files whether stored plain or xz-compressed. bench/results keeps files over
200 KiB as NAME.xz (test/checks/results_cited.py); logs and commands may name NAME, so either name opens
whichever of the two exists.

    from results_io import load_result, open_result, rows_of, meta_of
"""
import json
import lzma
import os


def resolve(path):
    """path if it exists, else its other form (NAME <-> NAME.xz) if that exists, else path."""
    if os.path.exists(path):
        return path
    other = path[:-len('.xz')] if path.endswith('.xz') else path + '.xz'
    return other if os.path.exists(other) else path  # opening it then names the path asked for


def open_result(path):
    """A text stream of the file at path or path.xz (decompressed on the fly)."""
    path = resolve(path)
    if path.endswith('.xz'):
        return lzma.open(path, 'rt', encoding='utf-8')
    return open(path, encoding='utf-8')


def load_result(path):
    """The JSON document in the file at path or path.xz."""
    with open_result(path) as f:
        return json.load(f)


# NVBench programs' results (bench/README.md, "On NVBench"; written by scripts/nvbench-run.sh): {"environment":
# {...}, "nvbench": NVBench's JSON}. Each state becomes a row: the benchmark's name, its axis values
# by axis name (type axes by NVBench's short names: I32, F32, ...), and its times in microseconds.
NVBENCH_TIMES = {
    'cold_us': 'nv/cold/time/gpu/median',       # NVBench: one launch at a time, L2 flushed
    'cold_mean_us': 'nv/cold/time/gpu/mean',
    'cold_cpu_us': 'nv/cold/time/cpu/median',   # the host's clock around the same launches
    'batch_us': 'nv/batch/time/gpu/mean',       # NVBench: launches back to back
    'hot_us': 'cascade/hot/time/gpu/median',    # cascade's hot (bench/support/nvbench_hot.cuh)
    'hot_min_us': 'cascade/hot/time/gpu/min',
    'hot_max_us': 'cascade/hot/time/gpu/max',
}


def wrap_nvbench(nvbench_doc, versions, commit, driver, date, notes=()):
    """A results file of an NVBench program: its JSON whole, the environment and its notes beside it."""
    device = nvbench_doc['devices'][0]
    environment = {
        'gpu': device['name'], 'sm_count': device['number_of_sms'],
        'compute_capability': '%d.%d' % (device['sm_version'] // 100, device['sm_version'] // 10 % 10),
        'l2_mb': round(device['l2_cache_size'] / 2**20, 1), 'nvidia_driver': driver, 'cascade_commit': commit,
        'date': date,
        'nvbench': nvbench_doc['meta']['version']['nvbench']['git_version'],
    }
    environment.update(versions)  # cuda_runtime, cuda_driver_api, cccl: the program's --versions
    return {'environment': environment, 'nvbench': nvbench_doc, 'notes': list(notes)}


def nvbench_rows(doc):
    """Every state of a results file of an NVBench program, as a dict (see NVBENCH_TIMES)."""
    rows = []
    for bench in doc['nvbench']['benchmarks']:
        for state in bench['states']:
            row = {'benchmark': bench['name'], 'skipped': bool(state.get('is_skipped')),
                   'skip_reason': state.get('skip_reason')}
            for axis in state['axis_values']:
                value = axis['value']
                row[axis['name']] = int(value) if axis['type'] == 'int64' else value
            values = {s['tag']: next(d['value'] for d in s['data'] if d['name'] == 'value')
                      for s in state.get('summaries') or []}
            for key, tag in NVBENCH_TIMES.items():
                if tag in values:
                    row[key] = float(values[tag]) * 1e6
            for tag in ('cascade/row', 'cascade/rivals/row'):  # what the state is (a JSON object; the second
                if tag in values:                             # tag is an older cascade-rivals')
                    row['row'] = json.loads(values[tag])
            rows.append(row)
    return rows


def meta_of(doc):
    """A results file's environment (gpu, nvidia_driver, cascade_commit, date, memory_gbs, ...), either
    layout; for NVBench's, the peak memory bandwidth from its device record."""
    if 'environment' not in doc:
        return doc
    meta = dict(doc['environment'])
    device = doc['nvbench']['devices'][0] if doc.get('nvbench', {}).get('devices') else {}
    if 'memory_gbs' not in meta and device.get('global_memory_bus_bandwidth'):
        meta['memory_gbs'] = round(device['global_memory_bus_bandwidth'] / 1e9)
    return meta


def _upper_median(values):
    """The median as the bench programs take it: the upper middle value."""
    values = sorted(values)
    return values[len(values) // 2] if values else None


def contest_rows(doc):
    """The states of a program on bench/support/contest.cu (cascade-rivals, cascade-bench,
    cascade-segmented, ...) as the rows of its tables: one row per contender, configuration and size,
    its times the median over rounds, its ratios the median of the rounds' ratios against the
    reference (a CUB call) in the same round, the read ceiling beside it, and the fields the program
    adds to what a state is (segment lengths, a policy's block size, ...)."""
    rounds = {}  # (benchmark, Config, Elements) -> {Round: {contender label: state row}}
    for r in nvbench_rows(doc):
        if r['skipped'] or 'row' not in r:
            continue
        rounds.setdefault((r['benchmark'], r['Config'], r['Elements']), {}).setdefault(r['Round'], {})[
            r['Contender']] = r
    rows = []
    for (_, _, n), by_round in rounds.items():
        labels = list(dict.fromkeys(label for states in by_round.values() for label in states))
        ceiling = {t: _upper_median([s['read ceiling'][t] for s in by_round.values() if 'read ceiling' in s])
                   for t in ('hot_us', 'cold_us')}
        for label in labels:
            if label == 'read ceiling':
                continue
            mine = [(states[label], states) for states in by_round.values() if label in states]
            d = mine[0][0]['row']
            reference = d['reference']
            row = {'kind': 'timing', 'family': d['family'], 'config': d['config'], 'item': d['item'], 'n': n,
                   'bytes': d['bytes'], 'name': d['name'], 'library': d['library'], 'mode': d['mode'],
                   'cccl': d['cccl'], 'result': d['result'], 'agrees': d['agrees'],
                   'ceiling_hot_us': ceiling['hot_us'], 'ceiling_cold_us': ceiling['cold_us']}
            for t in ('hot', 'cold', 'batch'):
                times = [s.get(t + '_us') for s, _ in mine if s.get(t + '_us') is not None]
                row[t + '_us'] = _upper_median(times)
                row[t + '_repeats_us'] = times
                ratios = [states[reference][t + '_us'] / s[t + '_us'] for s, states in mine
                          if reference in states and states[reference].get(t + '_us') and s.get(t + '_us')]
                row['ratio_' + t] = _upper_median(ratios)
            for t in ('hot', 'cold'):
                row[t + '_gbps'] = d['bytes'] / row[t + '_us'] / 1e3 if row[t + '_us'] else None
            ref = next((s[reference]['row'] for _, s in mine if reference in s), None)
            row['reference'] = ' '.join(x for x in (ref['name'], ref['mode']) if x) if ref else reference
            for key, value in d.items():  # the program's own fields
                row.setdefault(key, value)
            rows.append(row)
    return rows


def rows_of(doc):
    """The rows of a results file: its 'rows' list, or for cascade-rivals on NVBench its states as
    rows (contest_rows) and its notes (what each library returns for ties and NaN)."""
    if 'nvbench' not in doc:
        return doc['rows']
    return contest_rows(doc) + list(doc.get('notes', []))


def sweep_rows(doc):
    """cascade-bench's rows in the layout its tables and plots read (config, n, name, group, policy,
    hot_us, cold_us, cub_ratio_hot, cub_ratio_cold, ...), from either layout. On NVBench
    (bench/sweep.cu on contest.cu) the ratios are the rows' against CUB's, the read ceiling a row of
    its own (group 'ceiling') as before, cascade::reduce's row has thrust_ratio_hot/cold beside it,
    and what the older program measured with the launch included (hot_idle) is not there (None): the
    launch-included figure is NVBench's batch (batch_us, cub_ratio_batch)."""
    if 'nvbench' not in doc:
        return doc['rows']
    rows, ceilings, thrust = [], {}, {}
    for r in contest_rows(doc):
        if r.get('kind') != 'timing':
            continue
        r = dict(r, cub_ratio_hot=r['ratio_hot'], cub_ratio_cold=r['ratio_cold'], cub_ratio_hot_idle=None,
                 hot_idle_us=None, cub_ratio_batch=r.get('ratio_batch'))
        key = (r['config'], r['n'])
        if r['ceiling_hot_us'] is not None and key not in ceilings:
            ceilings[key] = dict(r, name='read ceiling', group='ceiling', policy='', hot_us=r['ceiling_hot_us'],
                                 cold_us=r['ceiling_cold_us'], agrees=True)
        if r['group'] == 'thrust':
            thrust[key] = r
        rows.append(r)
    for r in rows:
        t = thrust.get((r['config'], r['n']))
        if r['group'] == 'to_host' and t:
            r['thrust_ratio_hot'], r['thrust_ratio_cold'] = t['hot_us'] / r['hot_us'], t['cold_us'] / r['cold_us']
    cub = {(r['config'], r['n']): r for r in rows if r['group'] == 'cub'}
    for key, c in ceilings.items():
        ref = cub.get(key)
        c['cub_ratio_hot'] = ref['hot_us'] / c['hot_us'] if ref else None
        c['cub_ratio_cold'] = ref['cold_us'] / c['cold_us'] if ref else None
    return rows + list(ceilings.values())
