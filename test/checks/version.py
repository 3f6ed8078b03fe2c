#!/usr/bin/env python3
"""One version everywhere: include/cascade/version.cuh's CASCADE_VERSION_MAJOR/MINOR/PATCH, meson.build's
project version (which the CMake package's version file and cascade.pc are made from, and which
CMakeLists.txt reads), and the newest entry of CHANGELOG.md (`## X.Y.Z ...`). One test case.
Usage: version.py <source root>"""
import os, re, sys

root = sys.argv[1]
header = open(os.path.join(root, 'include/cascade/version.cuh')).read()
parts = [re.search(r'#define CASCADE_VERSION_%s (\d+)' % k, header) for k in ('MAJOR', 'MINOR', 'PATCH')]
versions = {}
versions['include/cascade/version.cuh'] = '.'.join(m.group(1) for m in parts) if all(parts) else None
m = re.search(r"^  version: '([0-9.]+)'", open(os.path.join(root, 'meson.build')).read(), re.M)
versions['meson.build'] = m.group(1) if m else None
m = re.search(r'^## (\d+\.\d+\.\d+)', open(os.path.join(root, 'CHANGELOG.md')).read(), re.M)
versions['CHANGELOG.md (newest entry)'] = m.group(1) if m else None
ok = None not in versions.values() and len(set(versions.values())) == 1
for where, v in versions.items():
    print(('[ok]   ' if ok else '[FAIL] ') + '%s: %s' % (where, v))
print('[doctest] test cases: 1 | %d passed | %d failed | 0 skipped' % (ok, not ok))
sys.exit(0 if ok else 1)
