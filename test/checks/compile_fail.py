#!/usr/bin/env python3
"""Compile-fail tests: each test/checks/compile_fail/*.cu that opens with `// expect: <text>` lines must fail
to compile with every <text> in the compiler's output; a file without such a line must compile. A
`// arch: <flag>` line among them compiles the file for that architecture instead of the build's,
`// std: <c++NN>` in that language standard instead of C++20, and `// flags: <flags>` adds flags.
Usage: compile_fail.py <compiler and flags...> -- <include dir> <file>..."""
import concurrent.futures, os, subprocess, sys, tempfile

sep = sys.argv.index('--')
compiler, include_dir, files = sys.argv[1:sep], sys.argv[sep + 1], sys.argv[sep + 2:]
passed = failed = 0
def check(path, tmp):
    """Compiles one file; returns (ok, line to print)."""
    expects, arch, std, extra = [], [], 'c++20', []
    for line in open(path):
        if line.startswith('// arch:'):
            arch = line[len('// arch:'):].split()
        elif line.startswith('// std:'):
            std = line[len('// std:'):].strip()
        elif line.startswith('// flags:'):
            extra = line[len('// flags:'):].split()
        elif line.startswith('// expect:'):
            expects.append(line[len('// expect:'):].strip())
        else:
            break
    flags = [a for a in compiler if not (arch and a.startswith(('-gencode', '-arch')))] + arch
    obj = os.path.join(tmp, os.path.basename(path) + '.o')
    cmd = flags + extra + ['-std=' + std, '-I', include_dir, '-c', path, '-o', obj]
    r = subprocess.run(cmd, capture_output=True, text=True)
    out = r.stdout + r.stderr
    name = os.path.basename(path)
    if not expects:
        ok = r.returncode == 0
        why = 'compiles' if ok else 'should compile but failed:\n' + out
    else:
        missing = [e for e in expects if e not in out]
        ok = r.returncode != 0 and not missing
        why = ('rejected with "%s"' % '", "'.join(expects)) if ok else (
            'compiled, but must be rejected' if r.returncode == 0 else 'rejected without "%s":\n%s' % (missing[0], out))
    return ok, ('[ok]   ' if ok else '[FAIL] ') + name + ': ' + why


# One compiler per core: each file is a separate compile, and they are slow (seconds each).
with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
    for ok, line in pool.map(lambda p: check(p, tmp), files):
        print(line)
        passed += ok
        failed += not ok
# doctest-style summary line, read by scripts/summarize_tests.py
print('[doctest] test cases: %d | %d passed | %d failed | 0 skipped' % (passed + failed, passed, failed))
sys.exit(1 if failed else 0)
