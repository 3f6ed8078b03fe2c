#!/usr/bin/env python3
"""Compile-fail tests: each test/checks/compile_fail/*.cu that opens with `// expect: <text>` lines must fail
to compile with every <text> in the compiler's output; a file without such a line must compile. A
`// arch: <flag>` line among them compiles the file for that architecture instead of the build's,
`// std: <c++NN>` in that language standard instead of C++20, `// flags: <flags>` adds flags, and
`// alone` keeps the file out of the shared compiles below (a file that tests a missing include).

Most files must fail with the build's own flags. Each of those compiles costs seconds of parsing the
same headers, so they are compiled together, a few units of them (one a core): every file's includes
first, then each file's code in a namespace of its own, under `#line` so that the compiler names the
file in each error that its code causes. A file passes there when errors naming it hold every <text>;
a file whose errors do not (or a unit with errors that name no file) is compiled again alone, and that
compile decides.
Usage: compile_fail.py <compiler and flags...> -- <include dir> <file>..."""
import concurrent.futures, os, re, subprocess, sys, tempfile

sep = sys.argv.index('--')
compiler, include_dir, files = sys.argv[1:sep], sys.argv[sep + 1], sys.argv[sep + 2:]
# CASCADE_CUDA_PTX_ONLY=1 (a build with -Dcuda-sass=false: no GPU, a compile check): a file's own
# architectures as PTX only, as the build's own are (what they check is the front end's choice).
ptx_only = os.environ.get('CASCADE_CUDA_PTX_ONLY') == '1'
workers = os.cpu_count() or 2


def header(path):
    """The file's directives: (expects, arch flags, std, extra flags, alone)."""
    expects, arch, std, extra, alone = [], [], 'c++20', [], False
    for line in open(path):
        if line.startswith('// arch:'):
            arch = line[len('// arch:'):].split()
            if ptx_only:
                arch = [re.sub(r'code=sm_(\d+)', r'code=compute_\1', re.sub(r'^-arch=sm_', '-arch=compute_', a)) for a in arch]
        elif line.startswith('// std:'):
            std = line[len('// std:'):].strip()
        elif line.startswith('// flags:'):
            extra = line[len('// flags:'):].split()
        elif line.startswith('// expect:'):
            expects.append(line[len('// expect:'):].strip())
        elif line.startswith('// alone'):
            alone = True
        else:
            break
    return expects, arch, std, extra, alone


def compile_(source, tmp, arch=(), std='c++20', extra=()):
    flags = [a for a in compiler if not (arch and a.startswith(('-gencode', '-arch')))] + list(arch)
    obj = os.path.join(tmp, os.path.basename(source) + '.o')
    r = subprocess.run(flags + list(extra) + ['-std=' + std, '-I', include_dir, '-c', source, '-o', obj],
                       capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def check(path, tmp):
    """Compiles one file alone; returns (ok, line to print)."""
    expects, arch, std, extra, _ = header(path)
    rc, out = compile_(path, tmp, arch, std, extra)
    name = os.path.basename(path)
    if not expects:
        ok = rc == 0
        why = 'compiles' if ok else 'should compile but failed:\n' + out
    else:
        missing = [e for e in expects if e not in out]
        ok = rc != 0 and not missing
        if ok:
            return True, rejected(path)
        why = 'compiled, but must be rejected' if rc == 0 else 'rejected without "%s":\n%s' % (missing[0], out)
    return ok, ('[ok]   ' if ok else '[FAIL] ') + name + ': ' + why


def rejected(path):
    return '[ok]   %s: rejected with "%s"' % (os.path.basename(path), '", "'.join(header(path)[0]))


INCLUDE = re.compile(r'\s*#\s*include\b')


def compile_together(paths, tmp, name):
    """Compiles `paths` as one unit; returns the set of files whose errors hold their texts."""
    includes, bodies = [], []
    for i, path in enumerate(paths):
        lines = open(path).read().split('\n')
        for l in lines:
            if INCLUDE.match(l) and l.strip() not in includes:
                includes.append(l.strip())
        body = ['' if INCLUDE.match(l) else l for l in lines]  # blank, so that line numbers stay
        bodies.append('namespace cascade_compile_fail_%d {\n#line 1 "%s"\n%s\n}\n' % (i, path, '\n'.join(body)))
    unit = os.path.join(tmp, name + '.cu')
    with open(unit, 'w') as f:
        f.write('\n'.join(includes) + '\n' + ''.join(bodies))
    rc, out = compile_(unit, tmp)
    # one error per block: its first line, then the indented lines under it (source, instantiation context)
    blocks = []
    for line in out.split('\n'):
        if line and not line[0].isspace():
            blocks.append(line)
        elif blocks:
            blocks[-1] += '\n' + line
    blocks = [b for b in blocks if re.match(r'.*\): error', b)]  # not the closing 'N errors detected'
    cleared = set()
    for i, path in enumerate(paths):
        # an error is the file's where it names the file (its line) or a type of the file's namespace
        mine = '\n'.join(b for b in blocks if path in b or 'cascade_compile_fail_%d::' % i in b)
        if rc != 0 and mine and all(e in mine for e in header(path)[0]):
            cleared.add(path)
    return cleared


def check_together(paths, tmp, index):
    """The files of `paths` compiled together, again with those not yet cleared while each round
    clears some (errors in class templates stop the compiler before it instantiates function
    templates: those show in the next round), then each file left alone. [(ok, line)] in order."""
    results, left, round_ = {}, list(paths), 0
    while len(left) > 1:
        cleared = compile_together(left, tmp, 'together_%d_%d' % (index, round_))
        round_ += 1
        for path in cleared:
            results[path] = (True, rejected(path))
        if not cleared:
            break
        left = [p for p in left if p not in cleared]
    for path in left:
        results[path] = check(path, tmp)
    return [results[p] for p in paths]


alone, together = [], []
for path in files:
    expects, arch, std, extra, solo = header(path)
    (together if expects and not (arch or extra or solo or std != 'c++20') else alone).append(path)
groups = [together[i::workers] for i in range(workers)]  # a group of one is compiled alone
passed = failed = 0
with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(workers) as pool:
    jobs = [pool.submit(check_together, g, tmp, i) for i, g in enumerate(groups) if g]
    jobs += [pool.submit(lambda p: [check(p, tmp)], p) for p in alone]
    for job in jobs:
        for ok, line in job.result():
            print(line)
            passed += ok
            failed += not ok
# doctest-style summary line, read by scripts/summarize_tests.py
print('[doctest] test cases: %d | %d passed | %d failed | 0 skipped' % (passed + failed, passed, failed))
sys.exit(1 if failed else 0)
