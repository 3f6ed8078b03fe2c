#!/usr/bin/env python3
"""What a header-only library costs its users at build time: nvcc's wall time and object size for
small translation units that each make one call, cascade's beside CUB's doing the same job, on this
machine, one compile at a time (nothing else should run).

    python3 scripts/compile_times.py --out bench/results/compile-times-DATE.json
    python3 scripts/compile_times.py --only reduce-float,include --repeats 1
    python3 scripts/compile_times.py --jobs 6 --include /other/checkout/include   (another tree's headers)
    python3 scripts/compile_times.py --table bench/results/compile-times-DATE.json   (the docs' table)

Each unit is a .cu file written to a temporary folder: a __global__-free host function taking a
device pointer and making the call (so that everything the call instantiates is compiled, and
nothing else), compiled by `nvcc -std=c++20 --extended-lambda -O2 -arch=sm_90 -c` (options as
--nvcc-flags says) with this checkout's include/ (or --include) first on the path. The times are
medians of --repeats (3) rounds, each round every unit's compiles in turn, cascade's then CUB's (a
machine that slows down slows both); the object's size is that of the .o. --jobs N runs N compiles at
once (each nvcc is one process on one core: on a machine with several times N cores they barely
meet). A unit that fails to compile is reported with its
first error lines and makes the exit status 1.

Units (cascade / CUB):
  include            #include <cascade/cascade.cuh>          / <cub/device/device_reduce.cuh>
  reduce-<type>      cascade::reduce(d, d + n, T{}) (default_policy, the host waits)
                                                           / cub::DeviceReduce::Sum, two-phase, + copy back
                     for float, double, int32, int64, int8 (into int), half (into float)
  reduce-named       cascade::reduce(policy<256, 8, shuffle, last_block>{}, d, d + n, 0.0f)
                                                           / cub::DeviceReduce::Sum of floats
  exact-double       cascade::reduce(d, d + n, 0.0, exact_plus{}) / cub::DeviceReduce::Sum of doubles
  segmented-float    cascade::segmented_reduce_into(default_policy{}, d, o, o + 1, n, out, 0.0f)
                                                           / cub::DeviceSegmentedReduce::Sum
  argmin-float       cascade::argmin(default_policy{}, d, d + n) / cub::DeviceReduce::ArgMin, + copy back
  reduce-float-extern, argmin-float-extern
                     the same calls in a file that declares them made elsewhere (CASCADE_EXTERN_REDUCE,
                     CASCADE_EXTERN_ARGMIN: docs/guide.md) / CUB's file as above
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TYPES = {'float': ('float', 'float', '0.0f'), 'double': ('double', 'double', '0.0'),
         'int32': ('int', 'int', '0'), 'int64': ('long long', 'long long', '0ll'),
         'int8': ('signed char', 'int', '0'), 'half': ('__half', 'float', '0.0f')}

CUB_REDUCE = '''#include <cub/device/device_reduce.cuh>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
{acc} sum({item} const* d, long long n) {{
  {acc}* out = nullptr;
  cudaMalloc(&out, sizeof({acc}));
  std::size_t bytes = 0;
  cub::DeviceReduce::Reduce(nullptr, bytes, d, out, n, cuda::std::plus<{acc}>{{}}, static_cast<{acc}>(0));
  void* temp = nullptr;
  cudaMalloc(&temp, bytes);
  cub::DeviceReduce::Reduce(temp, bytes, d, out, n, cuda::std::plus<{acc}>{{}}, static_cast<{acc}>(0));
  {acc} h{{}};
  cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(temp);
  cudaFree(out);
  return h;
}}
'''


def units():
    u = {}
    u['include'] = ('#include <cascade/cascade.cuh>\n', '#include <cub/device/device_reduce.cuh>\n')
    for name, (item, acc, zero) in TYPES.items():
        cascade = ('#include <cascade/cascade.cuh>\n#include <cuda_fp16.h>\n'
                   '%s sum(%s const* d, long long n) { return cascade::reduce(d, d + n, %s); }\n' % (acc, item, zero))
        u['reduce-' + name] = (cascade, CUB_REDUCE.format(item=item, acc=acc))
    u['reduce-named'] = ('#include <cascade/cascade.cuh>\n'
                         'using p = cascade::policy<256, 8, cascade::tree::shuffle, cascade::finish::last_block>;\n'
                         'float sum(float const* d, long long n) { return cascade::reduce(p{}, d, d + n, 0.0f); }\n',
                         CUB_REDUCE.format(item='float', acc='float'))
    u['exact-double'] = ('#include <cascade/cascade.cuh>\n'
                         'double sum(double const* d, long long n) { return cascade::reduce(d, d + n, 0.0, cascade::exact_plus{}); }\n',
                         CUB_REDUCE.format(item='double', acc='double'))
    u['segmented-float'] = ('#include <cascade/cascade.cuh>\n'
                            'void sums(float const* d, int const* o, long long n, float* out) {\n'
                            '  cascade::segmented_reduce_into(cascade::default_policy{}, d, o, o + 1, n, out, 0.0f);\n}\n',
                            '#include <cub/device/device_segmented_reduce.cuh>\n#include <cuda_runtime.h>\n'
                            'void sums(float const* d, int const* o, long long n, float* out) {\n'
                            '  std::size_t bytes = 0;\n'
                            '  cub::DeviceSegmentedReduce::Sum(nullptr, bytes, d, out, n, o, o + 1);\n'
                            '  void* temp = nullptr;\n  cudaMalloc(&temp, bytes);\n'
                            '  cub::DeviceSegmentedReduce::Sum(temp, bytes, d, out, n, o, o + 1);\n'
                            '  cudaFree(temp);\n}\n')
    u['argmin-float'] = ('#include <cascade/cascade.cuh>\n'
                         'long long where(float const* d, long long n) { return cascade::argmin(cascade::default_policy{}, d, d + n).index; }\n',
                         '#include <cub/device/device_reduce.cuh>\n#include <cuda_runtime.h>\n'
                         'long long where(float const* d, long long n) {\n'
                         '  float* lo = nullptr;\n  long long* at = nullptr;\n'
                         '  cudaMalloc(&lo, sizeof(float));\n  cudaMalloc(&at, sizeof(long long));\n'
                         '  std::size_t bytes = 0;\n'
                         '  cub::DeviceReduce::ArgMin(nullptr, bytes, d, lo, at, n);\n'
                         '  void* temp = nullptr;\n  cudaMalloc(&temp, bytes);\n'
                         '  cub::DeviceReduce::ArgMin(temp, bytes, d, lo, at, n);\n'
                         '  long long h = -1;\n  cudaMemcpy(&h, at, sizeof h, cudaMemcpyDeviceToHost);\n'
                         '  cudaFree(temp);\n  cudaFree(lo);\n  cudaFree(at);\n  return h;\n}\n')
    # a calling file whose call's kernels another file compiles (algorithm/instantiate.cuh), against
    # CUB's file for the same call, which compiles them
    float_sum = 'float sum(float const* d, long long n) { return cascade::reduce(d, d + n, 0.0f); }\n'
    float_where = ('long long where(float const* d, long long n) '
                   '{ return cascade::argmin(cascade::default_policy{}, d, d + n).index; }\n')
    u['reduce-float-extern'] = ('#include <cascade/cascade.cuh>\n'
                                'CASCADE_EXTERN_REDUCE(cascade::default_policy, float const*, float, cascade::plus);\n'
                                + float_sum, u['reduce-float'][1])
    u['argmin-float-extern'] = ('#include <cascade/cascade.cuh>\n'
                                'CASCADE_EXTERN_ARGMIN(cascade::default_policy, float const*);\n' + float_where,
                                u['argmin-float'][1])
    return u


def compile_once(nvcc, flags, include, source, folder, name):
    src = os.path.join(folder, name + '.cu')
    obj = os.path.join(folder, name + '.o')
    with open(src, 'w') as f:
        f.write(source)
    if os.path.exists(obj):
        os.remove(obj)
    cmd = [nvcc] + flags + ['-I', include, '-c', src, '-o', obj]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if p.returncode != 0:
        return None, None, (p.stderr or p.stdout).strip().splitlines()[:6]
    return seconds, os.path.getsize(obj), None


def nvcc_version(nvcc):
    out = subprocess.run([nvcc, '--version'], capture_output=True, text=True).stdout
    m = re.search(r'release (\S+), V(\S+)', out)
    return m.group(2) if m else out.strip().splitlines()[-1]


def cpu_model():
    try:
        with open('/proc/cpuinfo') as f:
            m = re.search(r'^model name\s*:\s*(.+)$', f.read(), re.M)
            return m.group(1).strip() if m else platform.processor()
    except OSError:
        return platform.processor()


def table(path):
    """A results file as the Markdown table docs/performance.md shows (rows-from checked)."""
    with open(path) as f:
        doc = json.load(f)
    rows = {(r['unit'], r['library']): r for r in doc['rows']}
    print('| unit | cascade s | CUB s | cascade / CUB | object KB, cascade / CUB |')
    print('|---|---|---|---|---|')
    for unit in dict.fromkeys(r['unit'] for r in doc['rows']):
        c, b = rows.get((unit, 'cascade')), rows.get((unit, 'cub'))
        if not (c and b and c['seconds'] and b['seconds']):
            continue
        print('| %s | %.2f | %.2f | %.2fx | %.0f / %.0f |' % (unit, c['seconds'], b['seconds'], c['seconds'] / b['seconds'],
                                                            c['object_bytes'] / 1024, b['object_bytes'] / 1024))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--table', metavar='FILE', help='print a results file as a Markdown table, compile nothing')
    ap.add_argument('--out', metavar='FILE')
    ap.add_argument('--only', help='comma-separated unit names (default: all)')
    ap.add_argument('--repeats', type=int, default=3)
    ap.add_argument('--nvcc', default=shutil.which('nvcc') or '/usr/local/cuda/bin/nvcc')
    ap.add_argument('--nvcc-flags', default='-std=c++20 --extended-lambda -O2 -arch=sm_90')
    ap.add_argument('--commit', default=None)
    ap.add_argument('--include', default=os.path.join(ROOT, 'include'), help="cascade's headers (default: this checkout's)")
    ap.add_argument('--jobs', type=int, default=1, help='compiles at once (default 1)')
    args = ap.parse_args()
    if args.table:
        return table(args.table)
    all_units = units()
    names = list(all_units) if not args.only else [n.strip() for n in args.only.split(',') if n.strip()]
    unknown = [n for n in names if n not in all_units]
    if unknown:
        ap.error('unknown unit(s): %s (known: %s)' % (','.join(unknown), ','.join(all_units)))
    flags = args.nvcc_flags.split()
    commit = args.commit or subprocess.run(['git', '-C', ROOT, 'rev-parse', '--short', 'HEAD'],
                                           capture_output=True, text=True).stdout.strip() or None
    doc = {'date': datetime.date.today().isoformat(), 'cascade_commit': commit, 'nvcc': nvcc_version(args.nvcc),
           'flags': ' '.join(flags), 'cpu': cpu_model(), 'cpus': os.cpu_count(), 'repeats': args.repeats,
           'jobs': args.jobs,
           'method': 'wall time of one nvcc -c of the unit (median of repeats, each repeat a round over every '
                     'unit, cascade then CUB; jobs compiles at once) and the object size; each unit one host '
                     'function making the call', 'rows': []}
    failed = 0
    print('%-16s %-8s %9s %11s' % ('unit', 'library', 'seconds', 'object KB'), flush=True)
    with tempfile.TemporaryDirectory() as folder:
        # Every repeat is a round over all units, cascade's and CUB's compiles of a unit side by side,
        # so that a machine that slows down (another tenant, the clock) slows both alike.
        jobs = [(rep, name, library, source) for rep in range(args.repeats) for name in names
                for library, source in zip(('cascade', 'cub'), all_units[name])]
        def one(job):  # one compile, in a folder of its own
            rep, name, library, source = job
            own = os.path.join(folder, '%s_%s_%d' % (name, library, rep))
            os.mkdir(own)
            return compile_once(args.nvcc, flags, args.include, source, own, 'unit')
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            results = list(pool.map(one, jobs))
        for name in names:
            for library, source in zip(('cascade', 'cub'), all_units[name]):
                runs = [r for j, r in zip(jobs, results) if j[1] == name and j[2] == library]
                times = [t for t, _, e in runs if not e]
                error = next((e for _, _, e in runs if e), None)
                size = next((z for _, z, e in runs if not e), None)
                row = {'unit': name, 'library': library, 'source': source,
                       'seconds': round(statistics.median(times), 3) if times and not error else None,
                       'all_seconds': [round(t, 3) for t in times], 'object_bytes': size}
                if error:
                    row['error'] = error
                    failed += 1
                doc['rows'].append(row)
                print('%-16s %-8s %9s %11s%s' % (name, library, '-' if row['seconds'] is None else '%.2f' % row['seconds'],
                                                 '-' if size is None else '%.0f' % (size / 1024),
                                                 ('  ' + ' / '.join(error)) if error else ''), flush=True)
    print()
    for name in names:
        c = next((r for r in doc['rows'] if r['unit'] == name and r['library'] == 'cascade'), None)
        b = next((r for r in doc['rows'] if r['unit'] == name and r['library'] == 'cub'), None)
        if c and b and c['seconds'] and b['seconds']:
            print('%-16s cascade / CUB: %.2fx time, %.2fx object' % (name, c['seconds'] / b['seconds'],
                                                                      c['object_bytes'] / b['object_bytes']))
    if args.out:
        with open(args.out, 'w') as f:
            json.dump(doc, f, indent=1)
            f.write('\n')
        print('wrote %s' % args.out)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
