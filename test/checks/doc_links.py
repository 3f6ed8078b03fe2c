#!/usr/bin/env python3
"""Every relative link in README.md, CHANGELOG.md and docs/ (notes included) leads somewhere: the file
exists, and an #anchor names a heading of the target (GitHub's slugs: lowercase, punctuation but - and _
dropped, spaces to -, repeats numbered -1, -2, ...). Links into fenced code blocks are not links.
One test case; the broken links are listed. Usage: doc_links.py <source root>"""
import glob, os, re, sys

root = sys.argv[1]
docs = [os.path.join(root, 'README.md'), os.path.join(root, 'CHANGELOG.md')]
docs += sorted(glob.glob(os.path.join(root, 'docs', '*.md')) + glob.glob(os.path.join(root, 'docs', 'notes', '*.md')))
fence = re.compile(r'^```.*?^```', re.S | re.M)
link = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')


def slugs(path):
    found, seen = set(), {}
    text = fence.sub('', open(path).read())
    for m in re.finditer(r'^#{1,6} (.+?)\s*$', text, re.M):
        s = re.sub(r'[^\w\- ]', '', m.group(1).lower()).replace(' ', '-')
        n = seen.get(s, 0)
        seen[s] = n + 1
        found.add(s if n == 0 else '%s-%d' % (s, n))
    return found


broken = []
checked = 0
for doc in docs:
    if not os.path.exists(doc):
        continue
    text = fence.sub('', open(doc).read())
    text = re.sub(r'`[^`\n]*`', '', text)  # inline code: [x](y) there is code, not a link
    for target in link.findall(text):
        if re.match(r'[a-z]+:', target):
            continue  # http:, https:, mailto:
        checked += 1
        path, _, anchor = target.partition('#')
        dest = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
        where = os.path.relpath(doc, root)
        if not os.path.exists(dest):
            broken.append('%s: %s (no such file)' % (where, target))
        elif anchor and dest.endswith('.md') and anchor not in slugs(dest):
            broken.append('%s: %s (no such heading in %s)' % (where, target, os.path.relpath(dest, root)))
for b in broken:
    print('[FAIL] ' + b)
print('%d links checked in %d documents' % (checked, len(docs)))
ok = not broken
print('[doctest] test cases: 1 | %d passed | %d failed | 0 skipped' % (ok, not ok))
sys.exit(0 if ok else 1)
