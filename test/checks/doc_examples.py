#!/usr/bin/env python3
"""Checks that each code block in README.md and docs/*.md preceded by `<!-- example: PATH -->` is
exactly the file PATH (which test/algorithms/docs_test.cu compiles and runs), or with `<!-- example: PATH#NAME -->`
exactly the lines between `// [NAME]` and `// [/NAME]` in PATH, dedented; that every file under
docs/examples/ and every region in them is shown somewhere; and that each block between
`<!-- generated: scripts/NAME.py -->` and `<!-- /generated -->` is exactly what that script prints
from the committed results (the README's headline figures); and that each table after
`<!-- rows from: scripts/NAME.py FILE... -->` has only lines that script prints from those results
files; and that the code block after `<!-- output of: scripts/NAME.py ARGS -->` is exactly what that
script prints given ARGS (a checker's report on a committed run); and that no table of measured
figures (ratios like 1.23x, times like 3.58 or 3.9 / 4.5) goes unchecked: each has one of the markers
above, or `<!-- figures from: FILE... -->` naming the committed test-run outputs it summarizes.
Usage: doc_examples.py <source root>"""
import glob, os, re, subprocess, sys, textwrap

def regions(source):
    found = {}
    for m in re.finditer(r'^[ \t]*// \[([\w-]+)\]\n(.*?)^[ \t]*// \[/\1\]\n', source, re.S | re.M):
        found[m.group(1)] = textwrap.dedent(m.group(2))
    return found

root = sys.argv[1]
marker = re.compile(r'<!-- example: (\S+) -->\s*\n```[a-z+]*\n(.*?)```', re.S)
shown, passed, failed = set(), 0, 0
for doc in [os.path.join(root, 'README.md')] + sorted(glob.glob(os.path.join(root, 'docs', '*.md'))):
    text = open(doc).read()
    for target, block in marker.findall(text):
        shown.add(target)
        path, _, region = target.partition('#')
        source = open(os.path.join(root, path)).read()
        expected = regions(source).get(region) if region else source
        ok = block == expected
        print(('[ok]   ' if ok else '[FAIL] ') + '%s shows %s%s' % (os.path.relpath(doc, root), target, '' if ok else ': differs'))
        passed, failed = passed + ok, failed + (not ok)
generated = re.compile(r'<!-- generated: (scripts/[\w.]+\.py) -->\n(.*?)<!-- /generated -->', re.S)
for doc in [os.path.join(root, 'README.md')] + sorted(glob.glob(os.path.join(root, 'docs', '*.md'))):
    for script, block in generated.findall(open(doc).read()):
        out = subprocess.run([sys.executable, os.path.join(root, script), root], capture_output=True, text=True)
        ok = out.returncode == 0 and block == out.stdout
        print(('[ok]   ' if ok else '[FAIL] ') + '%s shows what %s prints%s' % (
            os.path.relpath(doc, root), script, '' if ok else ': differs (rerun it and paste)\n' + out.stdout + out.stderr))
        passed, failed = passed + ok, failed + (not ok)
# A table after `<!-- rows from: scripts/NAME.py ARGS -->`: each of its lines (header included) is a line
# of what that script prints from the results files ARGS names, so its figures are the files'.
rows_from = re.compile(r'<!-- rows from: (scripts/[\w.]+\.py)((?: \S+)*) -->\n((?:\|[^\n]*\n)+)')
printed = {}
for doc in [os.path.join(root, 'README.md')] + sorted(glob.glob(os.path.join(root, 'docs', '*.md'))):
    for script, args, table in rows_from.findall(open(doc).read()):
        key = (script, args)
        if key not in printed:
            out = subprocess.run([sys.executable, os.path.join(root, script)] + args.split(), capture_output=True,
                                 text=True, cwd=root)
            printed[key] = set(out.stdout.split('\n')) if out.returncode == 0 else set()
        missing = [l for l in table.rstrip('\n').split('\n') if l not in printed[key]]
        ok = not missing
        print(('[ok]   ' if ok else '[FAIL] ') + '%s: a table of%s from %s%s' % (
            os.path.relpath(doc, root), args, script, '' if ok else ': rows not printed:\n  ' + '\n  '.join(missing[:5])))
        passed, failed = passed + ok, failed + (not ok)
# ... and a marker with no table under it is a table lost, not one checked.
for doc in [os.path.join(root, 'README.md')] + sorted(glob.glob(os.path.join(root, 'docs', '*.md'))):
    lines = open(doc).read().split('\n')
    for i, line in enumerate(lines):
        if '<!-- rows from:' in line:
            ok = i + 1 < len(lines) and lines[i + 1].startswith('|')
            if not ok:
                print('[FAIL] %s:%d: a rows-from marker with no table on the line under it' % (os.path.relpath(doc, root), i + 1))
            passed, failed = passed + ok, failed + (not ok)
# A code block after `<!-- output of: scripts/NAME.py ARGS -->`: exactly what that script prints.
output_of = re.compile(r'<!-- output of: (scripts/[\w.]+\.py)((?: \S+)*) -->\n```[a-z]*\n(.*?)```', re.S)
for doc in [os.path.join(root, 'README.md')] + sorted(glob.glob(os.path.join(root, 'docs', '*.md'))):
    for script, args, block in output_of.findall(open(doc).read()):
        out = subprocess.run([sys.executable, os.path.join(root, script)] + args.split(), capture_output=True,
                             text=True, cwd=root)
        ok = block == out.stdout
        print(('[ok]   ' if ok else '[FAIL] ') + '%s shows what %s%s prints%s' % (
            os.path.relpath(doc, root), script, args, '' if ok else ': differs (rerun it and paste)\n' + out.stdout))
        passed, failed = passed + ok, failed + (not ok)
# Every table of measured figures carries a marker: checked rows, a generated block, or the test runs
# (committed files) whose outputs it summarizes.
measured = re.compile(r'\d\.\d+x\b|(?<!Fig )\b\d+\.\d\d\b|\b\d+\.\d / \d+\.\d\b')
figures_from = re.compile(r'<!-- figures from: ((?:\S+ ?)+) -->')
for doc in [os.path.join(root, 'README.md')] + sorted(glob.glob(os.path.join(root, 'docs', '*.md'))):
    lines = open(doc).read().split('\n')
    i = 0
    while i < len(lines):
        if not lines[i].startswith('|'):
            i += 1
            continue
        j = i
        while j < len(lines) and lines[j].startswith('|'):
            j += 1
        before = '\n'.join(lines[max(0, i - 2):i])
        if any(measured.search(l) for l in lines[i:j]):
            m = figures_from.search(lines[i - 1]) if i else None
            missing = [f for f in m.group(1).split() if not os.path.exists(os.path.join(root, f))] if m else []
            ok = ('<!-- rows from:' in lines[i - 1] or '<!-- generated:' in before or (m and not missing))
            if not ok:
                print('[FAIL] %s:%d: a table of measured figures without a marker saying where they come from%s' % (
                    os.path.relpath(doc, root), i + 1, (' (no such file: %s)' % ', '.join(missing)) if missing else ''))
            passed, failed = passed + bool(ok), failed + (not ok)
        i = j
for path in sorted(glob.glob(os.path.join(root, 'docs', 'examples', '*'))):
    rel = os.path.relpath(path, root)
    names = regions(open(path).read())
    if not names and rel not in shown:
        print('[FAIL] %s is shown in no document' % rel)
        failed += 1
    for name in names:
        if rel + '#' + name not in shown:
            print('[FAIL] %s#%s is shown in no document' % (rel, name))
            failed += 1
print('[doctest] test cases: %d | %d passed | %d failed | 0 skipped' % (passed + failed, passed, failed))
sys.exit(1 if failed else 0)
