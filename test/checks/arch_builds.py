#!/usr/bin/env python3
"""The reduce and finish tests compiled for the architectures beside the build's own (sm_80 and sm_100:
an A100 and a Blackwell, each strategy on its own path there: finish::cluster's last_block fallback on
8.0, its cluster path on 10.0; tree::redux's instructions on both), so that CI, which builds for sm_90,
compiles every path of them. Compiled only (to objects: what the architecture changes is the device
code); the GPU runs of an 8.0 build are scripts/gpu-check.sh's with -Dcuda-arch=80.
Usage: arch_builds.py <nvcc and flags...> -- <include dir> <test dir> <source[:define,define...]>..."""
import concurrent.futures, os, subprocess, sys, tempfile

sep = sys.argv.index('--')
# the build's own -gencode/-arch flags are replaced by these architectures
compiler = [a for a in sys.argv[1:sep] if not a.startswith(('-gencode', '-arch'))]
include_dir, test_dir, units = sys.argv[sep + 1], sys.argv[sep + 2], sys.argv[sep + 3:]
archs = ['80', '100']
# CASCADE_CUDA_PTX_ONLY=1 (a build with -Dcuda-sass=false: no GPU, a compile check): their PTX only, as
# the build's own, with device optimization off (cicc -O0), which is what costs in PTX-only compiles.
ptx_only = os.environ.get('CASCADE_CUDA_PTX_ONLY') == '1'
gencode = ['-gencode=arch=compute_%s,code=%s_%s' % (a, 'compute' if ptx_only else 'sm', a) for a in archs]
# (the build's cuda_args, passed in, already hold -Xcicc -O0 then: nvvm refuses it twice)
workers = max(1, min(len(units), os.cpu_count() or 1))


def build(unit, tmp):
    source, _, defines = unit.partition(':')
    flags = ['-D' + d for d in defines.split(',') if d]
    obj = os.path.join(tmp, '%d.o' % abs(hash(unit)))
    cmd = compiler + gencode + ['-std=c++20', '-I', include_dir, '-I', test_dir] + flags + ['-c', source, '-o', obj]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return unit, r.returncode, r.stdout + r.stderr


passed = failed = 0
with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(workers) as pool:
    for unit, rc, out in pool.map(lambda u: build(u, tmp), units):
        name = os.path.basename(unit)
        if rc != 0:
            print('[FAIL] %s for sm_%s: does not compile:\n%s' % (name, ', sm_'.join(archs), out[-4000:]))
            failed += 1
        else:
            print('[ok]   %s compiles for sm_%s' % (name, ', sm_'.join(archs)))
            passed += 1
# doctest-style summary line, read by scripts/summarize_tests.py
print('[doctest] test cases: %d | %d passed | %d failed | 0 skipped' % (passed + failed, passed, failed))
sys.exit(1 if failed else 0)
