#!/usr/bin/env python3
"""The docs stay pages for users, not lab notebooks: no heading of docs/*.md carries a date (what
happened when goes into docs/notes/ and git), no page of docs/ is over 500 lines (a note over 160), and
no page, README.md included, speaks of issues, sessions or work sessions by number. One test case.
Usage: doc_pages.py <source root>"""
import glob, os, re, sys

root = sys.argv[1]
dated = re.compile(r'\b20\d\d-\d\d-\d\d\b|\b(January|February|March|April|May|June|July|August|September|'
                   r'October|November|December) 20\d\d\b')
process = re.compile(r'\b(issue|session)s? #?\d+|\b(this|that|the next|the last|a later|an earlier) session\b|'
                     r'\bsessions\b', re.I)
problems = []
pages = sorted(glob.glob(os.path.join(root, 'docs', '*.md')))
notes = sorted(glob.glob(os.path.join(root, 'docs', 'notes', '*.md')))
for path in [os.path.join(root, 'README.md')] + pages + notes:
    rel = os.path.relpath(path, root)
    lines = open(path).read().split('\n')
    limit = 160 if path in notes else 500
    if path != os.path.join(root, 'README.md') and len(lines) > limit:
        problems.append('%s: %d lines (at most %d: split it, or move history to docs/notes/)' % (rel, len(lines), limit))
    fence = False
    for number, line in enumerate(lines, 1):
        fence ^= line.startswith('```')
        if fence:
            continue
        if path in pages and line.startswith('#') and dated.search(line):
            problems.append('%s:%d: a dated heading (%s): the page says what is, the notes what happened' % (
                rel, number, line.strip()))
        if process.search(line):
            problems.append('%s:%d: speaks of the work, not the library: %s' % (rel, number, line.strip()[:100]))
for p in problems:
    print('[FAIL] ' + p)
print('%d pages, %d notes' % (len(pages), len(notes)))
print('[doctest] test cases: 1 | %d passed | %d failed | 0 skipped' % (not problems, bool(problems)))
sys.exit(1 if problems else 0)
