#!/usr/bin/env python3
"""bench/results holds the current results that the documents cite, and nothing else:
  1. at most 40 tracked files under bench/results;
  2. each of them is cited: its path appears in README.md, docs/ or the sources (a tuning table's
     provenance), or its name in the README.md of its folder while the folder itself is cited;
  3. every bench/results/... path the Markdown names (braces expanded, <placeholders> skipped;
     fenced code blocks left out: their commands name files they make) is in the tree;
  4. a results file over 200 KiB is stored as NAME.xz (xz -9e; scripts/results_io.py reads either).
A superseded run is deleted (git keeps it); a document that needs an old figure cites its commit.
One test case. Skipped outside a git checkout.
Usage: results_cited.py <source root>"""
import os, re, subprocess, sys

LIMIT_FILES, LIMIT_PLAIN = 40, 200 * 1024
root = sys.argv[1]
try:
    out = subprocess.run(['git', '-C', root, 'ls-files', '-z'], capture_output=True, check=True).stdout
except (OSError, subprocess.CalledProcessError) as e:
    print('[skip] no git checkout at %s (%s)' % (root, e))
    print('[doctest] test cases: 1 | 0 passed | 0 failed | 1 skipped')
    sys.exit(77)
tracked = [p for p in out.decode().split('\0') if p and os.path.lexists(os.path.join(root, p))]
results = sorted(p for p in tracked if p.startswith('bench/results/'))
bad = []

# 1.
if len(results) > LIMIT_FILES:
    bad.append('bench/results holds %d files, over %d: delete superseded runs, probes and patches '
               '(git keeps them) and cite their commit where a document needs an old figure' % (len(results), LIMIT_FILES))


def expand(pattern):
    m = re.search(r'\{([^{}]*)\}', pattern)
    if not m:
        return [pattern]
    return [x for alt in m.group(1).split(',') for x in expand(pattern[:m.start()] + alt + pattern[m.end():])]


def strip_fences(text):
    return re.sub(r'^\s*```.*?^\s*```', '', text, flags=re.S | re.M)


def cited_paths(text):
    for m in re.finditer(r'bench/results/[^\s`\'"()\[\]<>]*', text):
        path = m.group(0).rstrip('.,;:')
        if '<' not in path and path != 'bench/results/':
            yield from expand(path)


citing = [p for p in tracked if (p == 'README.md' or p.startswith('docs/')) and p.endswith('.md')]
sources = [p for p in tracked if p.startswith(('include/', 'src/'))]
cited = set()
for doc in citing:
    text = strip_fences(open(os.path.join(root, doc), encoding='utf-8').read())
    for path in cited_paths(text):
        cited.add(path.rstrip('/'))
        # 3.
        if not any(r == path.rstrip('/') or r.startswith(path.rstrip('/') + '/') for r in results):
            hint = ' (stored as %s.xz)' % path if path + '.xz' in results else ''
            bad.append('%s names %s, which is not in the tree%s' % (doc, path, hint))
for src in sources:
    for path in cited_paths(open(os.path.join(root, src), encoding='utf-8', errors='replace').read()):
        cited.add(path.rstrip('/'))

# 2.
for r in results:
    folder = os.path.dirname(r)
    readme = os.path.join(folder, 'README.md')
    direct = r in cited
    by_readme = (folder in cited and r != readme and readme in results and
                 os.path.basename(r) in open(os.path.join(root, readme), encoding='utf-8').read())
    if not (direct or by_readme or (r == readme and folder in cited)):
        bad.append('%s is cited by no document: delete it (git keeps it) or cite it' % r)
    # 4.
    if not r.endswith('.xz') and os.path.getsize(os.path.join(root, r)) > LIMIT_PLAIN:
        bad.append('%s is over 200 KiB: store it as %s.xz (xz -9e)' % (r, r))

print('%d files under bench/results, %d cited names' % (len(results), len(cited)))
for b in bad:
    print('[FAIL] ' + b)
ok = not bad
print('[doctest] test cases: 1 | %d passed | %d failed | 0 skipped' % (ok, not ok))
sys.exit(0 if ok else 1)
