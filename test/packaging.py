#!/usr/bin/env python3
"""Packaging, checked by real consumer builds:
  1. `meson install` puts the headers, libcascade and cascade.pc under the prefix;
  2. a project finds cascade through pkg-config and builds a program calling cascade::reduce;
  3. a project uses cascade as a Meson subproject through dependency('cascade').
Usage: packaging.py <source root> <nvcc>"""
import os, shutil, subprocess, sys, tempfile

root, nvcc = os.path.abspath(sys.argv[1]), sys.argv[2]
env = dict(os.environ, PATH=os.path.dirname(nvcc) + os.pathsep + os.environ.get('PATH', ''))
results = []

CONSUMER = '''#include <cascade/cascade.cuh>
int main() {
  using p = cascade::policy<128, 2, cascade::tree::sequential, cascade::finish::recursive>;
  int const* d = nullptr;
  return cascade::reduce(p{}, d, d, 5) == 5 ? 0 : 1;  // empty range: needs no GPU
}
'''

def run(cmd, cwd=None, extra_env=None):
    r = subprocess.run(cmd, cwd=cwd, env=dict(env, **(extra_env or {})), capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError('%s failed:\n%s%s' % (' '.join(cmd), r.stdout[-3000:], r.stderr[-3000:]))
    return r.stdout

def check(name, fn):
    try:
        fn()
        results.append(True)
        print('[ok]   ' + name)
    except Exception as e:  # report every step, not only the first failure
        results.append(False)
        print('[FAIL] %s: %s' % (name, e))

def consumer(dir, meson_build, setup_env=None):
    os.makedirs(dir, exist_ok=True)
    open(os.path.join(dir, 'meson.build'), 'w').write(meson_build)
    open(os.path.join(dir, 'consumer.cu'), 'w').write(CONSUMER)
    run(['meson', 'setup', 'build', '-Dcascade:tests=false'] if 'subproject' in meson_build else ['meson', 'setup', 'build'],
        cwd=dir, extra_env=setup_env)
    run(['ninja', '-C', 'build'], cwd=dir)
    run([os.path.join(dir, 'build', 'consumer')])

with tempfile.TemporaryDirectory() as tmp:
    prefix = os.path.join(tmp, 'prefix')

    def install():
        run(['meson', 'setup', os.path.join(tmp, 'build'), root, '--prefix', prefix, '-Dtests=false'])
        run(['ninja', '-C', os.path.join(tmp, 'build'), 'libcascade.a'])
        # The library and headers only (tag devel), without a rebuild: a plain `meson install` first
        # builds every target (demo, tuner, bench), which took 9 of this test's 10 minutes in CI.
        run(['meson', 'install', '-C', os.path.join(tmp, 'build'), '--quiet', '--skip-subprojects', '--tags', 'devel',
             '--no-rebuild'])
        for rel in ['include/cascade/cascade.cuh', 'include/cascade/tree/sequential.cuh',
                    'include/cascade/finish/recursive.cuh', 'include/cascade/detail/dispatch.cuh']:
            assert os.path.isfile(os.path.join(prefix, rel)), 'missing ' + rel
        pcs = [os.path.join(d, f) for d, _, fs in os.walk(prefix) for f in fs if f == 'cascade.pc']
        assert pcs, 'cascade.pc not installed'
        libs = [f for _, _, fs in os.walk(prefix) for f in fs if f.startswith('libcascade')]
        assert libs, 'libcascade not installed'
    check('meson install: headers, libcascade, cascade.pc', install)

    def via_pkg_config():
        pc_dirs = sorted({d for d, _, fs in os.walk(prefix) for f in fs if f == 'cascade.pc'})
        consumer(os.path.join(tmp, 'pc'), "project('pc_consumer', ['cpp', 'cuda'], default_options: ['cuda_std=c++20'])\n"
                 "executable('consumer', 'consumer.cu', dependencies: dependency('cascade', method: 'pkg-config'))\n",
                 setup_env={'PKG_CONFIG_PATH': os.pathsep.join(pc_dirs)})
    check('pkg-config consumer builds and runs', via_pkg_config)

    def via_subproject():
        d = os.path.join(tmp, 'sub')
        os.makedirs(os.path.join(d, 'subprojects'))
        os.symlink(root, os.path.join(d, 'subprojects', 'cascade'))
        consumer(d, "project('sub_consumer', ['cpp', 'cuda'], default_options: ['cuda_std=c++20'])\n"
                 "subproject('cascade')\n"
                 "executable('consumer', 'consumer.cu', dependencies: dependency('cascade'))\n")
    check('subproject consumer (dependency(\'cascade\')) builds and runs', via_subproject)

print('[doctest] test cases: %d | %d passed | %d failed | 0 skipped' % (len(results), sum(results), len(results) - sum(results)))
sys.exit(0 if all(results) else 1)
