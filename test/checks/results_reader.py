#!/usr/bin/env python3
"""scripts/results_io.py reads the NVBench programs' results as the tables need them: a state's
summaries as microseconds, the states of a program on bench/support/contest.cu as rows whose times
are medians over rounds and whose ratios are the median of each round's ratio against the reference
of that same round, with the read ceiling and the program's own fields beside them. Checked on a document made here (NVBench's JSON layout), where every
figure is known.

    python3 test/checks/results_reader.py ROOT
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(sys.argv[1] if len(sys.argv) > 1 else '.', 'scripts'))
from results_io import contest_rows, nvbench_rows, rows_of, wrap_nvbench  # noqa: E402
from results_merge import merge  # noqa: E402


def summary(tag, value, kind='float64'):
    return {'tag': tag, 'name': tag, 'data': [{'name': 'value', 'type': kind, 'value': str(value)}]}


def state(contender, rnd, hot_us, cold_us, row=None, skipped=False, tag='cascade/row'):
    axes = [{'name': 'Contender', 'type': 'string', 'value': contender},
            {'name': 'Round', 'type': 'int64', 'value': str(rnd)},
            {'name': 'Elements', 'type': 'int64', 'value': '1024'},
            {'name': 'Config', 'type': 'string', 'value': 'reduce/float-plus'}]
    summaries = [summary('cascade/hot/time/gpu/median', hot_us * 1e-6),
                 summary('nv/cold/time/gpu/median', cold_us * 1e-6),
                 summary('nv/batch/time/gpu/mean', 2 * hot_us * 1e-6)]
    if row is not None:
        summaries.append(summary(tag, json.dumps(row), 'string'))
    return {'name': 'state', 'axis_values': axes, 'summaries': [] if skipped else summaries, 'is_skipped': skipped}


def describe(name, library, mode):
    return {'family': 'reduce', 'config': 'float-plus', 'item': 'float', 'bytes': 4096.0, 'name': name,
            'library': library, 'mode': mode, 'reference': 'cub [two-phase]', 'result': '1', 'agrees': True,
            'cccl': '3.5.0'}


cub, cas, ceil = describe('cub', 'cub', 'two-phase'), describe('cascade', 'cascade', 'deterministic'), \
    describe('read ceiling', 'ceiling', '4 blocks')
cas['block_size'] = 256  # a program's own field
alone = describe('alone', 'cascade', 'policy')
states = [
    # round 0: cub 10 us hot, cascade 5 (2.0x); round 1: cub 30, cascade 10 (3.0x); round 2: cub 9, cascade 9
    # (1.0x). Against round 0's cub in every round the median ratio would be 1.11x.
    # cub's rows carry the older cascade-rivals' tag; 'alone' is timed in round 0 only (4 us: 2.5x)
    state('cub [two-phase]', 0, 10, 20, cub, tag='cascade/rivals/row'), state('cascade [deterministic]', 0, 5, 10, cas),
    state('alone [policy]', 0, 4, 8, alone), state('alone [policy]', 1, 0, 0, skipped=True),
    state('read ceiling', 0, 2, 4, ceil),
    state('cub [two-phase]', 1, 30, 60, cub, tag='cascade/rivals/row'), state('cascade [deterministic]', 1, 10, 20, cas),
    state('read ceiling', 1, 3, 6, ceil),
    state('cub [two-phase]', 2, 9, 18, cub, tag='cascade/rivals/row'), state('cascade [deterministic]', 2, 9, 18, cas),
    state('read ceiling', 2, 1, 2, ceil),
    state('cascade [not a contender]', 0, 0, 0, skipped=True),
]
nv = {'meta': {'version': {'nvbench': {'git_version': 'python-0.3.0'}}},
      'devices': [{'name': 'GPU', 'number_of_sms': 132, 'sm_version': 900, 'l2_cache_size': 62914560}],
      'benchmarks': [{'name': 'reduce-float', 'states': states}]}
doc = wrap_nvbench(nv, {'cuda_runtime': 13000, 'cccl': '3.5.0'}, 'abc1234', '580.0', '2026-12-01',
                   [{'kind': 'semantics', 'family': 'arg'}])
failures = []


def expect(what, got, want):
    if got != want and not (isinstance(want, float) and got is not None and abs(got - want) < 1e-9 * max(1, abs(want))):
        failures.append('%s: %r, expected %r' % (what, got, want))


expect('environment', (doc['environment']['gpu'], doc['environment']['compute_capability'],
                       doc['environment']['cascade_commit'], doc['environment']['cccl']),
       ('GPU', '9.0', 'abc1234', '3.5.0'))
flat = nvbench_rows(doc)
expect('states', len(flat), 12)
expect('a state in microseconds', flat[0]['hot_us'], 10.0)
expect('an int64 axis', flat[5]['Round'], 1)
expect('a skipped state', (flat[-1]['skipped'], 'hot_us' in flat[-1]), (True, False))
rows = contest_rows(doc)
expect('rows (the ceiling is not one)', sorted(r['name'] for r in rows), ['alone', 'cascade', 'cub'])
mine = next(r for r in rows if r['name'] == 'cascade')
expect('hot: the median over rounds', mine['hot_us'], 9.0)
expect('hot repeats in round order', mine['hot_repeats_us'], [5.0, 10.0, 9.0])
expect('ratio: the median of the rounds\' ratios', mine['ratio_hot'], 2.0)  # 2.0, 3.0, 1.0
expect('cold ratio', mine['ratio_cold'], 2.0)
expect('the ceiling: the median over rounds', (mine['ceiling_hot_us'], mine['ceiling_cold_us']), (2.0, 4.0))
expect('GB/s', mine['hot_gbps'], 4096.0 / 9.0 / 1e3)
expect('the reference as the tables name it', mine['reference'], 'cub two-phase')
expect('a program\'s own field', mine.get('block_size'), 256)
expect('a contender of one round: its ratio that round\'s', next(r for r in rows if r['name'] == 'alone')['ratio_hot'], 2.5)
expect('the reference against itself', next(r for r in rows if r['name'] == 'cub')['ratio_hot'], 1.0)
expect('notes after the rows', rows_of(doc)[-1], {'kind': 'semantics', 'family': 'arg'})
expect('a file of the older layout', rows_of({'rows': [1, 2]}), [1, 2])

# results_merge: a second invocation's benchmark joins; another commit merges only when asked
other_nv = json.loads(json.dumps(nv))
other_nv['benchmarks'][0]['name'] = 'reduce-double'
later = wrap_nvbench(other_nv, {'cuda_runtime': 13000, 'cccl': '3.5.0'}, 'def5678', '580.0', '2026-12-02', [])
same = wrap_nvbench(other_nv, {'cuda_runtime': 13000, 'cccl': '3.5.0'}, 'abc1234', '580.0', '2026-12-02', [])
both = merge([doc, same], 'two runs')
expect('merged benchmarks', [b['name'] for b in both['nvbench']['benchmarks']], ['reduce-float', 'reduce-double'])
expect('merged: the later date, the runs', (both['environment']['date'], both['environment']['runs']), ('2026-12-02', 'two runs'))
try:
    merge([doc, later], 'two commits')
    failures.append('merge: files of two commits merged without --commits-differ')
except ValueError:
    pass
mixed = merge([doc, later], 'two commits', commits_differ=True)
expect('merged across commits', (mixed['environment']['cascade_commit'], mixed['environment']['run_commits']),
       ('abc1234', ['abc1234', 'def5678']))
expect('the first document untouched', 'runs' in doc['environment'], False)

if failures:
    print('\n'.join(failures))
    sys.exit(1)
print('results_io reads NVBench results: %d states, %d rows' % (len(flat), len(rows)))
