#!/usr/bin/env python3
"""A file that names its own policy pulls in only what that policy needs: nvcc -M over each file must
list nothing of tuning/ or the tuned policies (policy/default_policy.cuh, policy/tuned_policy.cuh), no registry of
trees or finishes (tree/all.cuh, finish/all.cuh), no tree or finish beyond the file's own and the
tags, and nothing of CUB or cooperative groups. No file pulls in <algorithm>, <map>, <unordered_map> or
<cuda/std/mdspan> (large headers, measured in every including file's compile time: docs/performance.md,
"Compile time") beyond what an empty file gets from nvcc itself (with --extended-lambda, cuda_runtime.h
includes <functional>, which brings <unordered_map>). The files:
  one_policy.cu             policy/policy.cuh, reduce.cuh, tree/shuffle.cuh, finish/last_block.cuh;
  algorithms_one_policy.cu  the same with arg_reduce.cuh and transform_reduce.cuh;
  segmented_one_policy.cu   policy/segmented_policy.cuh (every owner: segment/all.cuh; tree::shuffle) and the
                            segmented calls, with a named owner and with default_policy (whose table,
                            tuning/segmented.cuh, names owners only);
  default_policy.cu         policy/default_policy.cuh: every table and what they name, but nothing of CUB
                            (only tree::cub_block and cross_check need it) or cooperative groups
                            (finish::cluster takes the runtime's cluster intrinsics);
  everything.cu             cascade.cuh: every header but distributed.cuh, cross_check.cuh and
                            tree/cub_block.cuh, and nothing of CUB (finish::cooperative's cooperative
                            groups included: grid.sync() is that finish's point).
Prints the cascade headers each pulled in. One test case.
Usage: lean.py <compiler and flags...> -- <include dir> <file>..."""
import os, subprocess, sys, tempfile

sep = sys.argv.index('--')
compiler, include_dir, sources = sys.argv[1:sep], sys.argv[sep + 1], sys.argv[sep + 2:]
root = os.path.normpath(os.path.join(include_dir, 'cascade'))
allowed_strategies = {'tree/tag.cuh', 'tree/shuffle.cuh', 'finish/tag.cuh', 'finish/last_block.cuh'}
failures = []
large = ('algorithm', 'map', 'unordered_map', 'mdspan')


def dependencies(source):
    with tempfile.TemporaryDirectory() as tmp:
        deps = os.path.join(tmp, 'deps.d')
        r = subprocess.run(compiler + ['-std=c++20', '-I', include_dir, '-M', source, '-o', deps],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(r.stdout + r.stderr)
            return None
        return sorted({os.path.normpath(p) for p in open(deps).read().replace('\\\n', ' ').split()[1:]})


# What nvcc brings to any file with these flags, which no cascade header can leave out.
with tempfile.TemporaryDirectory() as tmp:
    empty = os.path.join(tmp, 'empty.cu')
    open(empty, 'w').close()
    baseline = set(dependencies(empty) or [])
for source in sources:
    segmented = os.path.basename(source).startswith('segmented')
    paths = dependencies(source)
    if paths is None:
        failures.append('%s: nvcc -M failed' % source)
        continue
    ours = sorted(os.path.relpath(p, root) for p in paths if p.startswith(root + os.sep))
    allowed = allowed_strategies - ({'finish/last_block.cuh'} if segmented else set())
    tuned = os.path.basename(source) in ('default_policy.cu', 'everything.cu')
    bad = [] if tuned else [
        h for h in ours if (h.startswith('tuning/') and not (segmented and h == 'tuning/segmented.cuh')) or
        h in ('policy/default_policy.cuh', 'policy/tuned_policy.cuh') or
        h in ('tree/all.cuh', 'finish/all.cuh') or (h.startswith(('tree/', 'finish/')) and h not in allowed) or
        (h.startswith('segment/') and h != 'segment/tag.cuh' and not segmented)]
    everything = os.path.basename(source) == 'everything.cu'
    bad += [p for p in paths if '/cub/' in p or ('cooperative_groups' in p and not everything)]
    bad += [p for p in paths if os.path.basename(p) in large and p not in baseline]
    print('%s: %d cascade headers: %s' % (os.path.basename(source), len(ours), ' '.join(ours)))
    failures += ['%s pulled in %s' % (os.path.basename(source), b) for b in bad]
for f in failures:
    print('[FAIL] ' + f)
ok = not failures
print('[doctest] test cases: 1 | %d passed | %d failed | 0 skipped' % (ok, not ok))
sys.exit(0 if ok else 1)
