#!/usr/bin/env python3
"""Prints the closing line of scripts/test.sh from meson's testlog.json: test cases passed, failed and
skipped, summed over every test program's doctest summary line. A program that printed no summary
counts as one test: passed, failed or skipped by its exit status.
Usage: summarize_tests.py <testlog.json> <meson test exit status>"""
import json, re, sys

log_path, meson_rc = sys.argv[1], int(sys.argv[2])
summary = re.compile(r'\[doctest\] test cases:\s*(\d+)\s*\|\s*(\d+) passed\s*\|\s*(\d+) failed\s*\|\s*(\d+) skipped')
passed = failed = skipped = 0
rows = []
suites = {}
with open(log_path) as f:
    for line in f:
        line = line.strip()
        if not line:
            continue
        t = json.loads(line)
        m = summary.findall(t.get('stdout', '') or '')
        result = t.get('result', '')
        if m:
            _, p, fl, s = map(int, m[-1])
            if result not in ('OK', 'EXPECTEDFAIL') and fl == 0:
                fl = 1  # crashed or timed out after printing a summary
        elif result == 'SKIP':
            p, fl, s = 0, 0, 1
        else:
            p, fl, s = (1, 0, 0) if result == 'OK' else (0, 1, 0)
        passed, failed, skipped = passed + p, failed + fl, skipped + s
        rows.append('  %-28s %-8s %4d passed %4d failed %4d skipped %8.1f s' % (t['name'], result, p, fl, s, t.get('duration', 0)))
        suite = t['name'].split(' - ')[0] if ' - ' in t['name'] else 'tests'  # meson names them 'suite - project:test'
        suites[suite] = suites.get(suite, 0.0) + float(t.get('duration', 0))
print('\n'.join(rows))
print('  wall time per suite (summed over its programs): ' + ', '.join('%s %.0f s' % kv for kv in sorted(suites.items())))
if meson_rc != 0 and failed == 0:
    failed = 1  # meson itself failed: never report a clean run
print('%d passed, %d failed, %d skipped' % (passed, failed, skipped))
sys.exit(0 if failed == 0 else 1)
