#!/usr/bin/env python3
"""Compile-fail tests: each test/compile_fail/*.cu whose first line is `// expect: <text>` must fail
to compile with <text> in the compiler's output; a file without that line must compile.
Usage: compile_fail.py <compiler and flags...> -- <include dir> <file>..."""
import os, subprocess, sys, tempfile

sep = sys.argv.index('--')
compiler, include_dir, files = sys.argv[1:sep], sys.argv[sep + 1], sys.argv[sep + 2:]
passed = failed = 0
with tempfile.TemporaryDirectory() as tmp:
    for path in files:
        first = open(path).readline().strip()
        expect = first[len('// expect:'):].strip() if first.startswith('// expect:') else None
        cmd = compiler + ['-std=c++20', '-I', include_dir, '-c', path, '-o', os.path.join(tmp, 'out.o')]
        r = subprocess.run(cmd, capture_output=True, text=True)
        out = r.stdout + r.stderr
        name = os.path.basename(path)
        if expect is None:
            ok = r.returncode == 0
            why = 'compiles' if ok else 'should compile but failed:\n' + out
        else:
            ok = r.returncode != 0 and expect in out
            why = ('rejected with "%s"' % expect) if ok else (
                'compiled, but must be rejected' if r.returncode == 0 else 'rejected without "%s":\n%s' % (expect, out))
        print(('[ok]   ' if ok else '[FAIL] ') + name + ': ' + why)
        passed += ok
        failed += not ok
# doctest-style summary line, read by scripts/summarize_tests.py
print('[doctest] test cases: %d | %d passed | %d failed | 0 skipped' % (passed + failed, passed, failed))
sys.exit(1 if failed else 0)
