#!/usr/bin/env python3
"""A file that names its own policy pulls in only what that policy needs: nvcc -M over
test/checks/lean/one_policy.cu (policy.cuh, reduce.cuh, tree/shuffle.cuh, finish/last_block.cuh) must list no
other tree or finish, no registry (all.cuh), nothing of tuning/ or the tuned policies, and nothing of
CUB or cooperative groups. Prints the cascade headers it counted.
Usage: lean.py <compiler and flags...> -- <include dir> <file>"""
import os, subprocess, sys, tempfile

sep = sys.argv.index('--')
compiler, include_dir, source = sys.argv[1:sep], sys.argv[sep + 1], sys.argv[sep + 2]
with tempfile.TemporaryDirectory() as tmp:
    deps = os.path.join(tmp, 'deps.d')
    r = subprocess.run(compiler + ['-std=c++20', '-I', include_dir, '-M', source, '-o', deps],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout + r.stderr)
        print('[doctest] test cases: 1 | 0 passed | 1 failed | 0 skipped')
        sys.exit(1)
    paths = open(deps).read().replace('\\\n', ' ').split()[1:]
paths = sorted({os.path.normpath(p) for p in paths})
root = os.path.normpath(os.path.join(include_dir, 'cascade'))
ours = sorted(os.path.relpath(p, root) for p in paths if p.startswith(root + os.sep))
allowed_strategies = {'tree/tag.cuh', 'tree/shuffle.cuh', 'finish/tag.cuh', 'finish/last_block.cuh'}
bad = [h for h in ours if h.startswith('tuning/') or h in ('default_policy.cuh', 'tuned_policy.cuh') or os.path.basename(h) == 'all.cuh' or
       (h.startswith(('tree/', 'finish/')) and h not in allowed_strategies)]
bad += [p for p in paths if '/cub/' in p or 'cooperative_groups' in p]
print('%d cascade headers: %s' % (len(ours), ' '.join(ours)))
for b in bad:
    print('[FAIL] pulled in: ' + b)
ok = not bad
print('[doctest] test cases: 1 | %d passed | %d failed | 0 skipped' % (ok, not ok))
sys.exit(0 if ok else 1)
