#!/usr/bin/env python3
"""Packaging of a header-only library, checked by real consumer builds:
  1. `meson install` (tag devel) puts exactly the headers and cascade.pc under the prefix, nothing else;
  2. a program of two translation units, both including cascade.cuh, builds from the installed headers
     with only `nvcc -std=c++20 --extended-lambda -I <include>` (no pkg-config, no library) and runs;
  3. a project finds cascade through pkg-config and builds a program calling cascade::reduce;
  4. a project uses cascade as a Meson subproject through dependency('cascade').
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

# The nvcc-only consumer's second translation unit: the inline runtime (error text, device cache,
# scratch pool, pinned blocks, per-stream state, pointer check) and the same kernels, compiled again,
# link into one program without duplicate symbols. The __device__ lambda needs --extended-lambda.
SECOND = '''#include <cascade/cascade.cuh>
int second() {
  using p = cascade::policy<128, 2, cascade::tree::sequential, cascade::finish::recursive>;
  int const* d = nullptr;
  return cascade::reduce(p{}, d, d, 2, [] __device__ (int a, int b) { return a + b; });
}
'''
NVCC_MAIN = CONSUMER.replace('int main() {', 'int second();\nint main() {').replace(
    '== 5 ? 0 : 1;', '== 5 && second() == 2 ? 0 : 1;')

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
        # Headers and cascade.pc only (tag devel), with nothing to build: the library is header-only,
        # and a plain `meson install` would first build every target (demo, tuner, bench).
        run(['meson', 'install', '-C', os.path.join(tmp, 'build'), '--quiet', '--skip-subprojects', '--tags', 'devel',
             '--no-rebuild'])
        installed = sorted(os.path.relpath(os.path.join(d, f), prefix) for d, _, fs in os.walk(prefix) for f in fs)
        source = os.path.join(root, 'include')
        headers = sorted(os.path.join('include', os.path.relpath(os.path.join(d, f), source))
                         for d, _, fs in os.walk(os.path.join(source, 'cascade')) for f in fs)
        pcs = [f for f in installed if os.path.basename(f) == 'cascade.pc' and
               os.path.basename(os.path.dirname(f)) == 'pkgconfig']
        assert len(pcs) == 1, 'expected one pkgconfig/cascade.pc, found %s' % pcs
        missing = sorted(set(headers) - set(installed))
        extra = sorted(set(installed) - set(headers) - set(pcs))
        assert not missing, 'headers not installed: %s' % ' '.join(missing)
        assert not extra, 'installed besides the headers and cascade.pc (header-only): %s' % ' '.join(extra)
        pc = open(os.path.join(prefix, pcs[0])).read()
        cflags = [l for l in pc.splitlines() if l.startswith('Cflags:')]
        assert cflags and '-I${includedir}' in cflags[0] and '-std=c++20' in cflags[0], 'cascade.pc Cflags: %s' % cflags
        assert not [l for l in pc.splitlines() if l.startswith('Libs')], 'cascade.pc names a library'
    check('meson install: the headers and cascade.pc, nothing else', install)

    def via_nvcc_only():
        d = os.path.join(tmp, 'nvcc')
        os.makedirs(d)
        open(os.path.join(d, 'main.cu'), 'w').write(NVCC_MAIN)
        open(os.path.join(d, 'second.cu'), 'w').write(SECOND)
        run([nvcc, '-std=c++20', '--extended-lambda', '-I', os.path.join(prefix, 'include'), 'main.cu', 'second.cu',
             '-o', 'consumer'], cwd=d)
        run([os.path.join(d, 'consumer')])
    check('nvcc -std=c++20 --extended-lambda -I <include> consumer (two translation units) builds and runs',
          via_nvcc_only)

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
