#!/usr/bin/env python3
"""A consumer built for one architecture only: test/checks/arch/consumer.cu compiled with `nvcc -arch=sm_75`,
`-arch=sm_80` and `-arch=sm_100` (machine code for that architecture plus its PTX, as a CUDA
project that targets other GPUs builds), then, where a GPU is present, the first two run: default_policy at every
table bound must never launch code that was not compiled (finish::cluster's kernel has no cluster code
there). Also: a hand-picked finish::cluster or tree::redux in such a file is a compile error
(test/checks/compile_fail). Without a GPU the runs are skipped (CASCADE_REQUIRE_GPU=1 makes that a failure).
Usage: arch_consumer.py <nvcc and flags...> -- <include dir> <consumer.cu>"""
import concurrent.futures, os, subprocess, sys, tempfile

sep = sys.argv.index('--')
# the build's own -gencode/-arch flags are replaced by the consumer's architecture
compiler = [a for a in sys.argv[1:sep] if not a.startswith(('-gencode', '-arch'))]
include_dir, source = sys.argv[sep + 1], sys.argv[sep + 2]
archs = ['75', '80', '100']  # 10.0's code cannot run on the Hoppers we have: compiled only
runnable = ['75', '80']
passed = failed = skipped = 0
require_gpu = os.environ.get('CASCADE_REQUIRE_GPU') == '1'


# CASCADE_CUDA_PTX_ONLY=1 (-Dcuda-sass=false: a compile check without a GPU): each architecture's PTX
# only, device optimization off; on a GPU the driver would JIT it for the same architecture's paths.
ptx_only = os.environ.get('CASCADE_CUDA_PTX_ONLY') == '1'


def build(arch, tmp):
    exe = os.path.join(tmp, 'consumer_sm' + arch)
    # (the build's cuda_args, passed in, already hold -Xcicc -O0 when ptx_only: nvvm refuses it twice)
    target = ['-arch=compute_' + arch] if ptx_only else ['-arch=sm_' + arch]
    cmd = compiler + ['-std=c++20'] + target + ['-I', include_dir, source, '-o', exe]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return arch, exe, r.returncode, r.stdout + r.stderr


with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(len(archs)) as pool:
    for arch, exe, rc, out in pool.map(lambda a: build(a, tmp), archs):
        if rc != 0:
            print('[FAIL] sm_%s: does not compile:\n%s' % (arch, out[-4000:]))
            failed += 1
            continue
        print('[ok]   sm_%s: compiles' % arch)
        passed += 1
        if arch not in runnable:
            continue
        r = subprocess.run([exe], capture_output=True, text=True)
        print(r.stdout + r.stderr, end='')
        if r.returncode == 77 and not require_gpu:
            print('[skip] sm_%s: no GPU, not run' % arch)
            skipped += 1
        elif r.returncode == 0:
            print('[ok]   sm_%s: right on this GPU' % arch)
            passed += 1
        else:
            print('[FAIL] sm_%s: exit %d' % (arch, r.returncode))
            failed += 1
# doctest-style summary line, read by scripts/summarize_tests.py
print('[doctest] test cases: %d | %d passed | %d failed | %d skipped' % (passed + failed + skipped, passed, failed, skipped))
sys.exit(1 if failed else 0)
