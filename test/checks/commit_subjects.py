#!/usr/bin/env python3
"""Commit subjects stay readable in `git log --oneline`: at most 72 characters, shaped
`area: what changed` (figures and reasons go in the body). Checks the commits after BASE, the last
commit before the rule was checked; older subjects stay as they were written. One test case.
Skipped where there is no git history to read (a tarball, a shallow clone without BASE).
Usage: commit_subjects.py <repository root> <BASE commit>"""
import re, subprocess, sys

root, base = sys.argv[1], sys.argv[2]


def git(*args):
    return subprocess.run(['git', '-C', root] + list(args), capture_output=True, text=True)


if git('cat-file', '-e', base + '^{commit}').returncode != 0:
    print('no history with %s here: skipped' % base)
    print('[doctest] test cases: 1 | 0 passed | 0 failed | 1 skipped')
    sys.exit(0)
log = git('log', '--no-merges', '--format=%h%x09%s', base + '..HEAD')
if log.returncode != 0:
    print(log.stderr)
    print('[doctest] test cases: 1 | 0 passed | 1 failed | 0 skipped')
    sys.exit(1)
shape = re.compile(r'^\S.{0,48}?: \S')
bad = []
commits = [l.split('\t', 1) for l in log.stdout.splitlines() if l]
for h, s in commits:
    if len(s) > 72:
        bad.append('%s: %d characters (at most 72; move figures and reasons to the body): %s' % (h, len(s), s))
    elif not shape.match(s):
        bad.append('%s: not `area: what changed`: %s' % (h, s))
print('%d commits after %s' % (len(commits), base))
for b in bad:
    print('[FAIL] ' + b)
ok = not bad
print('[doctest] test cases: 1 | %d passed | %d failed | 0 skipped' % (ok, not ok))
sys.exit(0 if ok else 1)
