#!/usr/bin/env python3
"""The tracked tree stays small enough for the 64 MiB copy that carries it to the GPU machines:
  1. no tracked file under bench/results is over the threshold of scripts/compress-results.sh
     (200 KiB) unless it is compressed (NAME.xz);
  2. the tracked files add up to at most 40 MB;
  3. the documents name results files as they are stored: every bench/results/... path in a tracked
     Markdown file (braces and globs expanded, <placeholders> skipped) matches a tracked file or
     folder, and no code span that is a bare file name (`x.json`) names a file tracked only as
     x.json.xz. Fenced code blocks are left out: their commands may name files that they make.
Sizes are the working tree's, as the copy sees them. Exits 77 (skipped) outside a git checkout.
Usage: results_size.py <source root>"""
import fnmatch, glob, os, re, subprocess, sys

TREE_LIMIT = 40_000_000  # bytes: room under 64 MiB for a build folder or bundle carried beside it
root = sys.argv[1]
script = os.path.join(root, 'scripts', 'compress-results.sh')
threshold = int(re.search(r'^threshold=(\d+)', open(script).read(), re.M).group(1))
fix = 'run scripts/compress-results.sh and commit NAME.xz in place of NAME'

try:
    out = subprocess.run(['git', '-C', root, 'ls-files', '-z'], capture_output=True, check=True).stdout
except (OSError, subprocess.CalledProcessError) as e:
    print('[skip] no git checkout at %s (%s): the tracked files are unknown' % (root, e))
    print('[doctest] test cases: 1 | 0 passed | 0 failed | 1 skipped')
    sys.exit(77)
tracked = [p for p in out.decode().split('\0') if p]
tracked_set = set(tracked)
sizes = {p: os.lstat(os.path.join(root, p)).st_size for p in tracked if os.path.lexists(os.path.join(root, p))}
passed = failed = 0


def check(ok, text):
    global passed, failed
    passed, failed = passed + ok, failed + (not ok)
    if not ok:
        print('[FAIL] ' + text)


# 1. results files over the threshold
results = [p for p in sizes if p.startswith('bench/results/')]
for p in sorted(results):
    check(p.endswith('.xz') or sizes[p] <= threshold,
          '%s is %d bytes, over the %d of scripts/compress-results.sh: %s' % (p, sizes[p], threshold, fix))
print('  checked %d tracked files under bench/results against %d bytes' % (len(results), threshold))

# 2. the whole tracked tree
total = sum(sizes.values())
check(total <= TREE_LIMIT, 'the tracked files add up to %d bytes, over %d (the GPU machines take a 64 MiB copy): %s, '
      'or keep large files out of the tree' % (total, TREE_LIMIT, fix))
print('  the tracked files add up to %d bytes (limit %d)' % (total, TREE_LIMIT))


# 3. the documents' names of results files
def expand(pattern):
    m = re.search(r'\{([^{}]*)\}', pattern)
    if not m:
        return [pattern]
    return [x for alt in m.group(1).split(',') for x in expand(pattern[:m.start()] + alt + pattern[m.end():])]


def exists(path):
    path = path.rstrip('/')
    # On disk counts too: a GPU machine's copy carries the working tree beside a git index that may be
    # older than it (files renamed since show there as deleted and untracked).
    pattern = os.path.join(root, path)
    if glob.glob(pattern) if any(c in path for c in '*?[') else os.path.lexists(pattern):
        return True
    if any(c in path for c in '*?['):
        return any(fnmatch.fnmatchcase(p, path) or p.startswith(path + '/') for p in tracked)
    return path in tracked_set or any(p.startswith(path + '/') for p in tracked)


only_xz = {}  # basename -> True while every tracked file of that name is NAME.xz
for p in tracked:
    base = os.path.basename(p)
    if base.endswith('.xz'):
        only_xz.setdefault(base[:-3], True)
for p in tracked:
    if os.path.basename(p) in only_xz:
        only_xz[os.path.basename(p)] = False
mentions = 0
for doc in sorted(p for p in sizes if p.endswith('.md')):
    text = re.sub(r'^\s*```.*?^\s*```', '', open(os.path.join(root, doc), encoding='utf-8').read(), flags=re.S | re.M)
    for m in re.finditer(r'bench/results/[^\s`\'"()\[\]]*', text):
        path = m.group(0).rstrip('.,;:')
        if '<' in path:
            continue
        for p in expand(path):
            mentions += 1
            hint = ' (stored as %s.xz now)' % p if p + '.xz' in tracked_set else ''
            check(exists(p), '%s names %s, which is not in the tree%s' % (doc, p, hint))
    for m in re.finditer(r'`([\w.-]+)`', text):
        if m.group(1) in only_xz:
            mentions += 1
            check(not only_xz[m.group(1)], '%s names `%s`, which is stored as %s.xz now' % (doc, m.group(1), m.group(1)))
print('  checked %d names of results files in the Markdown' % mentions)
print('[doctest] test cases: %d | %d passed | %d failed | 0 skipped' % (passed + failed, passed, failed))
sys.exit(1 if failed else 0)
