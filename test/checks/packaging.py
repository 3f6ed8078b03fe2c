#!/usr/bin/env python3
"""Packaging of a header-only library, checked by real consumer builds:
  1. `meson install` (default options, --no-rebuild: nothing to build) puts exactly the headers,
     cascade.pc and the CMake package (lib/cmake/cascade) under the prefix, staged with --destdir;
     cascade-demo and cascade-tune are installed only with -Dinstall-tools=true (meson introspect);
     cascade.pc and the CMake files name no absolute path (relocatable: the consumers below use the
     staged copy, away from the configured prefix);
  2. a program of two translation units, both including cascade.cuh, builds from the installed headers
     with only `nvcc -std=c++20 --extended-lambda -I <include>` (no pkg-config, no library) and runs;
  3. a project finds cascade through pkg-config and builds a program calling cascade::reduce;
  4. a project uses cascade as a Meson subproject through dependency('cascade');
  5. CMake projects get cascade::cascade through find_package(cascade CONFIG) from the staged install
     and through add_subdirectory of the source tree (CMakeLists.txt), with CMAKE_CUDA_ARCHITECTURES=90
     and nothing of cascade's in their own flags (C++20 and --extended-lambda come from the target);
     each reduces 100000 ints with a __device__ lambda on the GPU against a host sum. Without a GPU they
     build and link, and the runs are skipped (CASCADE_REQUIRE_GPU=1 makes that a failure). cmake
     missing is a failure (scripts/test.sh installs it). docs/install.md shows the CMake project built here.
Usage: packaging.py <source root> <nvcc>"""
import json, os, shutil, subprocess, sys, tempfile, time

root, nvcc = os.path.abspath(sys.argv[1]), sys.argv[2]
# CASCADE_CUDA_PTX_ONLY=1 (a build with -Dcuda-sass=false: no GPU, a compile check): the consumers
# compile PTX only, device optimization off, as the build itself does; what they check is the same.
ptx_only = os.environ.get('CASCADE_CUDA_PTX_ONLY') == '1'
DEVICE_FLAGS = ['-arch=compute_90', '-Xcicc', '-O0'] if ptx_only else []
CMAKE_ARCHITECTURES = '90-virtual' if ptx_only else '90'
env = dict(os.environ, PATH=os.path.dirname(nvcc) + os.pathsep + os.environ.get('PATH', ''))
require_gpu = os.environ.get('CASCADE_REQUIRE_GPU') == '1'
PREFIX = '/usr/local'  # configured; the files are staged under <tmp>/dest/usr/local (--destdir)
results = []  # True (passed), False (failed), None (skipped)

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

# The CMake consumers' project, as docs/install.md shows it ("Using cascade from another project"); the
# add_subdirectory one differs in one line. No -std, no --extended-lambda, no include path of its own.
CMAKE_PROJECT = '''cmake_minimum_required(VERSION 3.22)
project(app LANGUAGES CXX CUDA)
find_package(cascade 0.1 CONFIG REQUIRED)
add_executable(app app.cu)
target_link_libraries(app PRIVATE cascade::cascade)
'''
CMAKE_FIND_LINE = 'find_package(cascade 0.1 CONFIG REQUIRED)'
CMAKE_SUBDIR_LINE = 'add_subdirectory(cascade)'
# A real reduction on the GPU, checked against the host; a __device__ lambda as the op, which compiles
# only with the target's --extended-lambda. Exit 0: right; 1: wrong or a CUDA error; 77: no GPU.
CMAKE_APP = '''#include <cascade/cascade.cuh>
#include <cstdio>
#include <vector>
int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::puts("no CUDA device: built and linked, not run");
    return 77;
  }
  std::vector<int> host(100000);
  int expected = 0;
  for (int i = 0; i < static_cast<int>(host.size()); ++i) expected += host[i] = i % 13 - 5;
  int* d = nullptr;
  if (cudaMalloc(&d, host.size() * sizeof(int)) != cudaSuccess ||
      cudaMemcpy(d, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice) != cudaSuccess)
    return 1;
  using p = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::last_block>;
  int got = cascade::reduce(p{}, d, d + host.size(), 3, [] __device__ (int a, int b) { return a + b; });
  cudaFree(d);
  std::printf("sum %d, host %d\\n", got, expected + 3);
  return got == expected + 3 ? 0 : 1;
}
'''


def run(cmd, cwd=None, extra_env=None, stderr_too=False):
    r = subprocess.run(cmd, cwd=cwd, env=dict(env, **(extra_env or {})), capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError('%s failed:\n%s%s' % (' '.join(cmd), r.stdout[-3000:], r.stderr[-3000:]))
    return r.stdout + r.stderr if stderr_too else r.stdout


class Skip(Exception):
    pass


def check(name, fn):
    start = time.monotonic()
    try:
        note = fn()
        results.append(True)
        print('[ok]   %s (%s%.0f s)' % (name, note + ', ' if note else '', time.monotonic() - start))
    except Skip as e:
        results.append(None)
        print('[skip] %s: %s' % (name, e))
    except Exception as e:  # report every step, not only the first failure
        results.append(False)
        print('[FAIL] %s: %s' % (name, e))


def consumer(dir, meson_build, setup_env=None):
    os.makedirs(dir, exist_ok=True)
    open(os.path.join(dir, 'meson.build'), 'w').write(meson_build)
    open(os.path.join(dir, 'consumer.cu'), 'w').write(CONSUMER)
    setup = ['meson', 'setup', 'build'] + (['-Dcascade:tests=false'] if 'subproject' in meson_build else [])
    if DEVICE_FLAGS:
        # the Meson consumer's debug build adds -G, which with -Xcicc -O0 nvvm refuses (-opt twice)
        setup.append('-Dcuda_args=' + ' '.join(f for f in DEVICE_FLAGS if f not in ('-Xcicc', '-O0')))
    run(setup, cwd=dir, extra_env=setup_env)
    run(['ninja', '-C', 'build'], cwd=dir)
    run([os.path.join(dir, 'build', 'consumer')])


with tempfile.TemporaryDirectory() as tmp:
    build, dest = os.path.join(tmp, 'build'), os.path.join(tmp, 'dest')
    staged = dest + PREFIX  # the prefix's copy under the destdir
    installed_ok = []

    def install():
        # -Dtools=disabled: the install needs nothing of the tuner's and bench's (nlohmann-json)
        run(['meson', 'setup', build, root, '--prefix', PREFIX, '-Dtests=false', '-Dtools=disabled'])
        # By default only the library: nothing to build (--no-rebuild), header-only. A plain
        # `meson install` would first build every target (demo, tuner, bench).
        run(['meson', 'install', '-C', build, '--quiet', '--skip-subprojects', '--no-rebuild', '--destdir', dest])
        installed = sorted(os.path.relpath(os.path.join(d, f), staged) for d, _, fs in os.walk(dest) for f in fs)
        source = os.path.join(root, 'include')
        headers = sorted(os.path.join('include', os.path.relpath(os.path.join(d, f), source))
                         for d, _, fs in os.walk(os.path.join(source, 'cascade')) for f in fs)
        pcs = [f for f in installed if os.path.basename(f) == 'cascade.pc' and
               os.path.basename(os.path.dirname(f)) == 'pkgconfig']
        assert len(pcs) == 1, 'expected one pkgconfig/cascade.pc, found %s' % pcs
        cmake_names = ['cascadeConfig.cmake', 'cascadeConfigVersion.cmake', 'cascadeUsage.cmake']
        cmakes = [f for f in installed if f.split(os.sep)[-3:-1] == ['cmake', 'cascade']]
        assert sorted(os.path.basename(f) for f in cmakes) == cmake_names, \
            'expected %s in <libdir>/cmake/cascade, found %s' % (cmake_names, cmakes)
        missing = sorted(set(headers) - set(installed))
        extra = sorted(set(installed) - set(headers) - set(pcs) - set(cmakes))
        assert not missing, 'headers not installed: %s' % ' '.join(missing)
        assert not extra, 'installed besides the headers, cascade.pc and the CMake package: %s' % ' '.join(extra)
        pc = open(os.path.join(staged, pcs[0])).read()
        cflags = [l for l in pc.splitlines() if l.startswith('Cflags:')]
        assert cflags and '-I${includedir}' in cflags[0] and '-std=c++20' in cflags[0], 'cascade.pc Cflags: %s' % cflags
        assert not [l for l in pc.splitlines() if l.startswith(('Libs', 'Requires'))], \
            'cascade.pc names a library (nvcc links the CUDA runtime): %s' % pc
        assert pc.startswith('prefix=${pcfiledir}/'), 'cascade.pc is not relocatable (prefix from ${pcfiledir}):\n' + pc
        for f in pcs + cmakes:
            text = open(os.path.join(staged, f)).read()
            assert PREFIX + '/' not in text and root not in text, '%s names an absolute path:\n%s' % (f, text)
        installed_ok.append(True)
    check('meson install: the headers, a relocatable cascade.pc and the CMake package, nothing else', install)

    def tools_only_on_request():
        def bins():
            out = json.loads(run(['meson', 'introspect', build, '--installed']))
            return sorted(os.path.relpath(d, PREFIX) for d in out.values()
                          if os.path.basename(os.path.dirname(d)) == 'bin')
        assert bins() == [], 'installed by default: %s' % bins()
        run(['meson', 'setup', '--reconfigure', build, root, '-Dinstall-tools=true', '-Dtools=auto'])
        assert bins() == ['bin/cascade-demo', 'bin/cascade-tune'], 'with -Dinstall-tools=true: %s' % bins()
    check('cascade-demo and cascade-tune installed only with -Dinstall-tools=true', tools_only_on_request)

    def via_nvcc_only():
        d = os.path.join(tmp, 'nvcc')
        os.makedirs(d)
        open(os.path.join(d, 'main.cu'), 'w').write(NVCC_MAIN)
        open(os.path.join(d, 'second.cu'), 'w').write(SECOND)
        run([nvcc, '-std=c++20', '--extended-lambda'] + DEVICE_FLAGS + ['-I', os.path.join(staged, 'include'), 'main.cu',
             'second.cu', '-o', 'consumer'], cwd=d)
        run([os.path.join(d, 'consumer')])
    check('nvcc -std=c++20 --extended-lambda -I <include> consumer (two translation units) builds and runs',
          via_nvcc_only)

    def via_pkg_config():
        pc_dirs = sorted({d for d, _, fs in os.walk(dest) for f in fs if f == 'cascade.pc'})
        pc_env = {'PKG_CONFIG_PATH': os.pathsep.join(pc_dirs)}
        cflags = run(['pkg-config', '--cflags', 'cascade'], extra_env=pc_env).split()
        includes = [os.path.normpath(f[2:]) for f in cflags if f.startswith('-I')]
        assert includes == [os.path.join(staged, 'include')], \
            'pkg-config --cflags gives %s, not the staged %s/include' % (cflags, staged)
        consumer(os.path.join(tmp, 'pc'), "project('pc_consumer', ['cpp', 'cuda'], default_options: ['cuda_std=c++20'])\n"
                 "executable('consumer', 'consumer.cu', dependencies: dependency('cascade', method: 'pkg-config'))\n",
                 setup_env=pc_env)
    check('pkg-config consumer (the staged install: -I<destdir>/usr/local/include) builds and runs', via_pkg_config)

    def via_subproject():
        d = os.path.join(tmp, 'sub')
        os.makedirs(os.path.join(d, 'subprojects'))
        os.symlink(root, os.path.join(d, 'subprojects', 'cascade'))
        consumer(d, "project('sub_consumer', ['cpp', 'cuda'], default_options: ['cuda_std=c++20'])\n"
                 "subproject('cascade')\n"
                 "executable('consumer', 'consumer.cu', dependencies: dependency('cascade'))\n")
    check('subproject consumer (dependency(\'cascade\')) builds and runs', via_subproject)

    install_doc = open(os.path.join(root, 'docs', 'install.md')).read()

    def doc_shows_cmake():
        assert '```cmake\n' + CMAKE_PROJECT + '```' in install_doc, 'docs/install.md lacks this CMake project:\n' + CMAKE_PROJECT
        assert '`' + CMAKE_SUBDIR_LINE + '`' in install_doc, 'docs/install.md does not name `%s`' % CMAKE_SUBDIR_LINE
    check('docs/install.md shows the CMake consumer built here', doc_shows_cmake)

    def cmake_consumer(kind, line, extra_args, include_dir):
        cmake = shutil.which('cmake', path=env['PATH'])
        built = []

        def build_it():
            assert cmake, 'cmake not found: apt-get install cmake (scripts/test.sh does this for you)'
            assert installed_ok or kind != 'find_package', 'nothing installed to find'
            d = os.path.join(tmp, 'cmake_' + kind)
            os.makedirs(d)
            open(os.path.join(d, 'CMakeLists.txt'), 'w').write(CMAKE_PROJECT.replace(CMAKE_FIND_LINE, line))
            open(os.path.join(d, 'app.cu'), 'w').write(CMAKE_APP)
            if kind == 'add_subdirectory':
                os.symlink(root, os.path.join(d, 'cascade'))
            out = run([cmake, '-S', d, '-B', os.path.join(d, 'build'), '-G', 'Ninja',
                       '-DCMAKE_CUDA_COMPILER=' + nvcc, '-DCMAKE_CUDA_ARCHITECTURES=' + CMAKE_ARCHITECTURES] +
                      (['-DCMAKE_CUDA_FLAGS=-Xcicc -O0'] if ptx_only else []) + extra_args, stderr_too=True)
            assert 'CMake Warning' not in out and 'CMake Deprecation Warning' not in out, out[-3000:]
            run([cmake, '--build', os.path.join(d, 'build')])
            # the compile line: cascade's include directory and --extended-lambda, from the target
            commands = run(['ninja', '-C', os.path.join(d, 'build'), '-t', 'commands', 'app'])
            compile_line = [l for l in commands.splitlines() if 'app.cu' in l and ' -c ' in l]
            assert compile_line and include_dir in compile_line[0] and '--extended-lambda' in compile_line[0], \
                'compile line without %s and --extended-lambda: %s' % (include_dir, compile_line)
            built.append(os.path.join(d, 'build', 'app'))
            return 'cmake ' + run([cmake, '--version']).split('\n')[0].split()[-1]
        check('CMake consumer through %s (CMAKE_CUDA_ARCHITECTURES=%s) builds' % (line, CMAKE_ARCHITECTURES), build_it)

        def run_it():
            if not built:
                raise RuntimeError('not built')
            r = subprocess.run(built, env=env, capture_output=True, text=True)
            if r.returncode == 77 and not require_gpu:
                raise Skip('no GPU, built and linked only')
            if r.returncode != 0:
                raise RuntimeError('exit %d: %s%s' % (r.returncode, r.stdout, r.stderr))
            return r.stdout.strip()
        check('CMake consumer through %s reduces 100000 ints on the GPU right' % line, run_it)

    cmake_consumer('find_package', CMAKE_FIND_LINE, ['-DCMAKE_PREFIX_PATH=' + staged], os.path.join(staged, 'include'))
    cmake_consumer('add_subdirectory', CMAKE_SUBDIR_LINE, [], os.path.join(tmp, 'cmake_add_subdirectory', 'cascade', 'include'))

passed, failed, skipped = results.count(True), results.count(False), results.count(None)
print('[doctest] test cases: %d | %d passed | %d failed | %d skipped' % (len(results), passed, failed, skipped))
sys.exit(1 if failed else 0)
