#!/usr/bin/env python3
"""Checks that each code block in README.md and docs/*.md preceded by `<!-- example: PATH -->` is
exactly the file PATH (which test/docs_test.cu compiles and runs), and that every file under
docs/examples/ is shown somewhere. Usage: doc_examples.py <source root>"""
import glob, os, re, sys

root = sys.argv[1]
marker = re.compile(r'<!-- example: (\S+) -->\s*\n```[a-z+]*\n(.*?)```', re.S)
shown, passed, failed = set(), 0, 0
for doc in [os.path.join(root, 'README.md')] + sorted(glob.glob(os.path.join(root, 'docs', '*.md'))):
    text = open(doc).read()
    for path, block in marker.findall(text):
        shown.add(path)
        source = open(os.path.join(root, path)).read()
        ok = block == source
        print(('[ok]   ' if ok else '[FAIL] ') + '%s shows %s%s' % (os.path.relpath(doc, root), path, '' if ok else ': differs'))
        passed, failed = passed + ok, failed + (not ok)
for path in sorted(glob.glob(os.path.join(root, 'docs', 'examples', '*'))):
    rel = os.path.relpath(path, root)
    if rel not in shown:
        print('[FAIL] %s is shown in no document' % rel)
        failed += 1
print('[doctest] test cases: %d | %d passed | %d failed | 0 skipped' % (passed + failed, passed, failed))
sys.exit(1 if failed else 0)
