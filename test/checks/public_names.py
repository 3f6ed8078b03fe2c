#!/usr/bin/env python3
"""Every public name is in the reference: each struct, class, alias, enum, function and variable that
include/cascade/ declares in namespace cascade or a namespace inside it (detail excepted) is named, in
backticks, somewhere in docs/*.md. Reads the headers as text (comments stripped; declarations at
namespace scope). One test case; the missing names are listed with their header.
Usage: public_names.py <source root>"""
import glob, os, re, sys

root = sys.argv[1]
include = os.path.join(root, 'include', 'cascade')
decl = re.compile(r'namespace\s+([\w:]+)\s*\{|\{|\}|'
                  r'(?:^|\n)[ \t]*(?:template\s*<[^;{]*?>\s*)?(?:inline\s+|constexpr\s+|static\s+)*'
                  r'(?:struct|class|using|enum class|enum)\s+(\w+)|'
                  r'(?:^|\n)[ \t]*(?:template\s*<[^;{]*?>\s*)?(?:requires[^\n]*\n\s*)?(?:inline\s+|constexpr\s+)*'
                  r'[\w:<>,\s\*&]+?\s(\w+)\s*\(')
names = {}
for path in sorted(glob.glob(os.path.join(include, '**', '*.cuh'), recursive=True)):
    rel = os.path.relpath(path, include)
    if rel.startswith('detail' + os.sep):
        continue
    text = re.sub(r'//[^\n]*', '', open(path).read())
    level, spaces = 0, []  # spaces: (the brace level a namespace opened at, its name)
    for m in decl.finditer(text):
        if m.group(1):
            spaces.append((level, m.group(1)))
            level += 1
            continue
        token = m.group(0).strip()
        if token in ('{', '}'):
            level += 1 if token == '{' else -1
            if token == '}' and spaces and spaces[-1][0] == level:
                spaces.pop()
            continue
        space = '::'.join(n for _, n in spaces)
        if not space.startswith('cascade') or 'detail' in space or not spaces or level != spaces[-1][0] + 1:
            continue
        name = m.group(2) or m.group(3)
        if name and name not in ('operator', 'if', 'for', 'while', 'return', 'static_assert', 'requires'):
            names.setdefault(space + '::' + name, rel)
docs = ' '.join(open(f).read() for f in glob.glob(os.path.join(root, 'docs', '*.md')))
documented = {w for span in re.findall(r'`([^`]*)`', docs) for w in re.findall(r'\w+', span)}
missing = [(n, h) for n, h in sorted(names.items()) if n.rsplit('::', 1)[-1] not in documented]
print('%d public names in include/cascade/, %d not named in docs/' % (len(names), len(missing)))
for n, h in missing:
    print('[FAIL] %s (%s)' % (n, h))
ok = bool(names) and not missing
print('[doctest] test cases: 1 | %d passed | %d failed | 0 skipped' % (ok, not ok))
sys.exit(0 if ok else 1)
