#!/usr/bin/env python3
"""The docs' strategy tables list every strategy of the registries: each name between the
registry:begin/registry:end markers of include/cascade/tree/all.cuh (finish/all.cuh) must head a row
(`name`) of the first table in docs/strategies.md whose header starts with "| tree" ("| finish").
Usage: registry_docs.py <source root>"""
import os, re, sys

root = sys.argv[1]


def registry(family):
    text = open(os.path.join(root, 'include', 'cascade', family, 'all.cuh')).read()
    block = text.split('// registry:begin')[1].split('// registry:end')[0]
    return [n.strip() for line in block.splitlines() for n in line.split(',') if n.strip() and not n.strip().startswith('//')]


def first_table(lines, head):
    for i, line in enumerate(lines):
        if line.startswith(head):
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith('|'):
                    break
                rows.append(row)
            return rows
    return []


lines = open(os.path.join(root, 'docs', 'strategies.md')).read().splitlines()
passed = failed = 0
for family in ('tree', 'finish'):
    rows = first_table(lines, '| ' + family)
    heads = {m.group(1) for r in rows for m in [re.match(r'\|\s*`([a-z_]+)`', r)] if m}
    for name in registry(family):
        ok = name in heads
        passed += ok
        failed += not ok
        print(('[ok]   ' if ok else '[FAIL] ') + '%s::%s in the first "| %s" table of docs/strategies.md' % (family, name, family))
print('[doctest] test cases: %d | %d passed | %d failed | 0 skipped' % (passed + failed, passed, failed))
sys.exit(1 if failed else 0)
