#!/usr/bin/env python3
"""cascade against PyTorch, CuPy and JAX in one process, on what cascade-rivals and cascade-segmented
time: the sum and the minimum of float, double, int32, int64, int8 (summed into int32) and half
(summed into float) items; argmin, argmax and minmax of float, double, int32, int8 and half; at
2^10..2^30 items in steps of 2^2 (as cascade-rivals); and 2^26 floats in segments of one size
(1 .. 2^20, as cascade-segmented): the segmented reduce (torch.segment_reduce with lengths,
jax.ops.segment_sum with sorted ids) and the sum of each row of the (segments, size) view (what a
user of these libraries writes for batched_reduce). cascade's side is bench/rivals/python_calls.cu
(libcascade-python-calls.so, through ctypes): default_policy's call with the accumulator the Python
call has, on torch's buffer and stream; the segmented cases are cascade-segmented's.

One buffer a case, made by torch on the GPU (seeded: floats uniform in [0, 1), integers uniform in
[-100, 100] for int8 and [-2^20, 2^20] otherwise) and handed to CuPy and JAX through DLPack, so that
every library reads the same bytes. The contenders of one case (one call a library) run in
alternating rounds (cascade, torch, cupy, jax, cascade, ...), each timed as scripts/gpu_libraries.py says (CUDA
events behind a 300 us spin kernel, hot, hot_idle and cold; JAX by the host clock), warm-up runs
first (5), then the median of 31 rounds (5 when a call takes over 20 ms). Every result is checked
against a fold of the buffer in float64 / int64 (torch, through a widened copy): integers exactly
(modulo 2^32 where the library sums into int32), float sums within RTOL (1e-4; 1e-12 for double),
minima, maxima and indices exactly, indices the first of their value ("agrees").

    python3 scripts/python_rivals.py --out bench/results/python-rivals-h200-DATE.json
    python3 scripts/python_rivals.py --families reduce --items float --max-log2 20 --quick

Options: --out FILE (JSON; without it, only the table on stdout), --families reduce,arg,segmented
(default all), --items (default every item of each family), --libraries cascade,torch,cupy,jax (default all;
one that does not import is recorded under "missing"; torch is needed to make the buffers),
--min-log2 10 --max-log2 30 --step 2, --cascade-lib SO, --quick (1 warm-up and 3 rounds: a smoke test). An unknown
option exits with status 2; a disagreeing result makes the exit status 1.
"""
import argparse
import datetime
import gc
import json
import os
import platform
import sys
import time

import numpy as np

from gpu_libraries import (LONG_MS, LONG_RUNS, RUNS, WARMUP, Cupy, Jax, Torch, fmt, gbps, median, names,
                           runtime_text,
                           nvidia_driver, probe_l2)

FAMILIES = ['reduce', 'arg', 'segmented']
LIBRARIES = ['cascade', 'torch', 'cupy', 'jax']
SEED = 20261201
RTOL = {'float': 1e-4, 'half': 1e-4, 'double': 1e-12}
SEGMENTED_ITEMS = 1 << 26
SEGMENT_SIZES = [1, 4, 8, 10, 16, 32, 64, 256, 1024, 16384, 1 << 20]  # cascade-segmented's

# item: (torch dtype name, bytes, the sum's accumulator dtype name)
ITEMS = {'float': ('float32', 4, 'float32'), 'double': ('float64', 8, 'float64'), 'int32': ('int32', 4, 'int32'),
         'int64': ('int64', 8, 'int64'), 'int8': ('int8', 1, 'int32'), 'half': ('float16', 2, 'float32')}
FAMILY_ITEMS = {'reduce': ['float', 'double', 'int32', 'int64', 'int8', 'half'],
                'arg': ['float', 'double', 'int32', 'int8', 'half'], 'segmented': ['float']}
FAMILY_OPS = {'reduce': ['plus', 'minimum'], 'arg': ['argmin', 'argmax', 'minmax']}


class Case:
    """One buffer and one op: family reduce (config '<item>-<op>', as cascade-rivals names it), argmin,
    argmax or minmax (config '<item>'), or segmented / batched (segment_size set)."""

    def __init__(self, family, item, op, n, segment_size=0):
        self.family, self.item, self.op, self.n, self.segment_size = family, item, op, n, segment_size
        self.bytes = n * ITEMS[item][1]
        self.config = '%s-%s' % (item, op) if family == 'reduce' else item
        self.segments = n // segment_size if segment_size else 0
        self.used = self.segments * segment_size if segment_size else n  # the items the segments cover


def buffers(families, items, sizes):
    """(family, item, n, [Case]) for each buffer, in the order they are made."""
    out = []
    for f in families:
        for item in FAMILY_ITEMS[f]:
            if item not in items:
                continue
            if f == 'segmented':
                for s in SEGMENT_SIZES:
                    out.append((f, item, SEGMENTED_ITEMS, [Case('segmented', item, 'plus', SEGMENTED_ITEMS, s),
                                                           Case('batched', item, 'plus', SEGMENTED_ITEMS, s)]))
                continue
            for n in sizes:
                ops = FAMILY_OPS[f]
                out.append((f, item, n, [Case(op if f == 'arg' else f, item, op, n) for op in ops]))
    return out


# ---------------------------------------------------------------------------------------------------
# The libraries (gpu_libraries.py times them), each with its calls. call(case, x) -> (name, fn, note);
# x is the library's view of the torch buffer; for segmented cases, aux holds what the call needs.

class TorchLib(Torch):
    def view(self, x):
        return x

    def aux(self, case, x):
        t = self.t
        if case.family != 'segmented':
            return None
        return t.full((case.segments,), case.segment_size, dtype=t.int64, device=self.dev)

    def call(self, case, x, aux):
        t = self.t
        acc = getattr(t, ITEMS[case.item][2])
        if case.family == 'reduce':
            if case.op == 'plus':
                return 'torch.sum(x, dtype=%s)' % ITEMS[case.item][2], (lambda: t.sum(x, dtype=acc)), ''
            return 'torch.amin(x)', (lambda: t.amin(x)), ''
        if case.family == 'argmin':
            return 'torch.argmin(x)', (lambda: t.argmin(x)), ''
        if case.family == 'argmax':
            return 'torch.argmax(x)', (lambda: t.argmax(x)), ''
        if case.family == 'minmax':
            return 'torch.aminmax(x)', (lambda: t.aminmax(x)), ''
        xs = x[:case.used]  # (2^26 is no multiple of 10: the segments cover what they cover, as in cascade-segmented)
        if case.family == 'segmented':
            return ("torch.segment_reduce(x, 'sum', lengths=l)",
                    (lambda: t.segment_reduce(xs, 'sum', lengths=aux)), '')
        v = xs.view(case.segments, case.segment_size)
        return 'torch.sum(x.view(segments, size), dim=1)', (lambda: t.sum(v, dim=1)), ''


class CupyLib(Cupy):
    def view(self, x):
        return self.cp.from_dlpack(x)

    def aux(self, case, x):
        return None

    def call(self, case, x, aux):
        cp = self.cp
        acc = getattr(cp, ITEMS[case.item][2])
        if case.family == 'reduce':
            if case.op == 'plus':
                return 'x.sum(dtype=%s)' % ITEMS[case.item][2], (lambda: x.sum(dtype=acc)), ''
            return 'x.min()', (lambda: x.min()), ''
        if case.family == 'argmin':
            return 'x.argmin()', (lambda: x.argmin()), ''
        if case.family == 'argmax':
            return 'x.argmax()', (lambda: x.argmax()), ''
        if case.family == 'minmax':
            return '(x.min(), x.max())', (lambda: (x.min(), x.max())), 'two calls, as written'
        if case.family == 'segmented':
            return None  # no segmented reduction in CuPy's numpy API
        v = x[:case.used].reshape(case.segments, case.segment_size)
        return 'x.reshape(segments, size).sum(axis=1)', (lambda: v.sum(axis=1)), ''


class JaxLib(Jax):
    def __init__(self):
        super().__init__()
        self.jax.config.update('jax_enable_x64', True)  # int64 and double items

    def view(self, x):
        try:
            return self.jax.dlpack.from_dlpack(x)
        except Exception:  # a JAX that does not take torch's capsule: a copy through the host
            return self.jax.device_put(x.cpu().numpy(), self.dev)

    def aux(self, case, x):
        if case.family != 'segmented':
            return None
        jnp = self.jnp
        return jnp.repeat(jnp.arange(case.segments, dtype=jnp.int32), case.segment_size,
                          total_repeat_length=case.used)

    def call(self, case, x, aux):
        jax, jnp = self.jax, self.jnp
        acc = getattr(jnp, ITEMS[case.item][2])
        if case.family == 'reduce':
            if case.op == 'plus':
                f = jax.jit(lambda v: jnp.sum(v, dtype=acc))
                return 'jit(jnp.sum(x, dtype=%s))' % ITEMS[case.item][2], (lambda: f(x)), self.note
            f = jax.jit(jnp.min)
            return 'jit(jnp.min)', (lambda: f(x)), self.note
        if case.family in ('argmin', 'argmax'):
            f = jax.jit(getattr(jnp, case.family))
            return 'jit(jnp.%s)' % case.family, (lambda: f(x)), self.note
        if case.family == 'minmax':
            f = jax.jit(lambda v: (jnp.min(v), jnp.max(v)))
            return 'jit((jnp.min(x), jnp.max(x)))', (lambda: f(x)), self.note
        if case.family == 'segmented':
            segs, used = case.segments, case.used
            f = jax.jit(lambda v, ids: jax.ops.segment_sum(v[:used], ids, num_segments=segs, indices_are_sorted=True))
            return ('jit(jax.ops.segment_sum(x, ids, segments, indices_are_sorted=True))', (lambda: f(x, aux)),
                    self.note + '; reads an int32 id an item')
        size, used = case.segment_size, case.used
        f = jax.jit(lambda v: jnp.sum(v[:used].reshape(-1, size), axis=1))
        return 'jit(jnp.sum(x.reshape(segments, size), axis=1))', (lambda: f(x)), self.note


class CascadeLib(Torch):
    """cascade's calls (bench/rivals/python_calls.cu, built as libcascade-python-calls.so) through ctypes,
    on torch's buffers and current stream, timed by torch's events as TorchLib is."""
    library = 'cascade'
    path = None  # --cascade-lib, else the first build directory that has the library

    def __init__(self):
        import ctypes
        import glob
        super().__init__()
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        found = [self.path] if self.path else sorted(glob.glob(os.path.join(here, 'build*', 'bench',
                                                                            'libcascade-python-calls.so')))
        if not found or not os.path.isfile(found[0]):
            raise RuntimeError('no libcascade-python-calls.so (build the bench, or give --cascade-lib)')
        self.lib = ctypes.CDLL(found[0])
        c = ctypes
        self.lib.cascade_python_find.argtypes = [c.c_char_p, c.c_char_p]
        self.lib.cascade_python_out_bytes.argtypes = [c.c_int]
        self.lib.cascade_python_out_bytes.restype = c.c_longlong
        self.lib.cascade_python_run.argtypes = [c.c_int, c.c_void_p, c.c_longlong, c.c_void_p, c.c_void_p]
        self.lib.cascade_python_decode.argtypes = [c.c_int, c.c_char_p, c.POINTER(c.c_double), c.POINTER(c.c_double)]
        self.lib.cascade_python_error.restype = c.c_char_p
        v = self.lib.cascade_python_version()
        self.version = '%d.%d.%d' % (v // 100000, v // 100 % 1000, v % 100)
        self.commit = os.environ.get('CASCADE_COMMIT')
        self.runtime = runtime_text(self.lib.cascade_python_runtime())
        self.library_path = found[0]
        self.ctypes = ctypes

    def view(self, x):
        return x

    def aux(self, case, x):
        return None

    def call(self, case, x, aux):
        if case.family in ('segmented', 'batched'):
            return None  # cascade-segmented times these
        config = case.config.encode()
        k = self.lib.cascade_python_find(case.family.encode(), config)
        if k < 0:
            return None
        out = self.t.empty(self.lib.cascade_python_out_bytes(k), dtype=self.t.uint8, device=self.dev)
        run, err, n, ptr = self.lib.cascade_python_run, self.lib.cascade_python_error, case.n, x.data_ptr()
        stream = self.t.cuda.current_stream().cuda_stream

        def fn():
            if run(k, ptr, n, out.data_ptr(), stream):
                raise RuntimeError(err().decode())
            return out
        name = {'reduce': 'cascade::reduce_into(default_policy)', 'argmin': 'cascade::argmin_into(default_policy)',
                'argmax': 'cascade::argmax_into(default_policy)',
                'minmax': 'cascade::reduce_fused_into(default_policy, minimum, maximum)'}[case.family]
        note = 'int8 minimum in int8, as x.min() returns it' if case.config == 'int8-minimum' else ''
        return name, fn, note

    def values(self, case, out):
        """What the call wrote, read back: a scalar, or (min, max)."""
        c = self.ctypes
        raw = bytes(out.cpu().numpy().tobytes())
        a, b = c.c_double(), c.c_double()
        k = self.lib.cascade_python_find(case.family.encode(), case.config.encode())
        self.lib.cascade_python_decode(k, raw, c.byref(a), c.byref(b))
        return (a.value, b.value) if case.family == 'minmax' else a.value


LOADERS = {'torch': TorchLib, 'cupy': CupyLib, 'jax': JaxLib, 'cascade': CascadeLib}


# ---------------------------------------------------------------------------------------------------
# The buffer and its reference, by torch.

def make_buffer(tl, item, n):
    t = tl.t
    g = t.Generator(device=tl.dev)
    g.manual_seed(SEED + n)
    dtype = getattr(t, ITEMS[item][0])
    if item in ('float', 'double', 'half'):
        x = t.rand(n, generator=g, device=tl.dev, dtype=dtype)
    else:
        bound = 100 if item == 'int8' else 1 << 20
        x = t.randint(-bound, bound + 1, (n,), generator=g, device=tl.dev, dtype=dtype)
    t.cuda.synchronize()
    return x


def references(tl, family, x, segment_sizes):
    """What every case of this buffer must give, from a widened copy (float64 or int64)."""
    t = tl.t
    wide = x.to(t.float64 if x.is_floating_point() else t.int64)
    ref = {}
    if family == 'segmented':
        for s in segment_sizes:
            ref[s] = wide[:wide.numel() // s * s].view(-1, s).sum(dim=1).cpu().numpy()
    else:
        lo, hi = wide.min(), wide.max()
        ref['plus'] = wide.sum().item()
        ref['minimum'] = ref['min'] = lo.item()
        ref['max'] = hi.item()
        ref['argmin'] = t.nonzero(wide == lo)[0].item()
        ref['argmax'] = t.nonzero(wide == hi)[0].item()
    del wide
    t.cuda.synchronize()
    return ref


def scalar(lib, v):
    return np.asarray(lib.host(v)).reshape(-1)[0].item()


def check(lib, case, out, ref):
    """(agrees, note) of a result against the reference."""
    if case.family == 'segmented' or case.family == 'batched':
        got = np.asarray(lib.host(out), dtype=np.float64).reshape(-1)
        want = ref[case.segment_size]
        if got.shape != want.shape:
            return False, 'shape %s, want %s' % (got.shape, want.shape)
        err = np.abs(got - want) / np.maximum(np.abs(want), 1e-30)
        worst = float(err.max()) if err.size else 0.0
        return bool(np.all(np.isfinite(err)) and worst <= RTOL['float']), 'max relative error %.3g' % worst
    if case.family == 'minmax':
        got = lib.values(case, out) if hasattr(lib, 'values') else (scalar(lib, out[0]), scalar(lib, out[1]))
        return got == (ref['min'], ref['max']), 'got %r, want %r' % (got, (ref['min'], ref['max']))
    got = lib.values(case, out) if hasattr(lib, 'values') else scalar(lib, out)
    want = ref[case.family if case.family != 'reduce' else case.op]
    if case.family == 'reduce' and case.op == 'plus':
        if case.item in RTOL:
            ok = abs(got - want) <= RTOL[case.item] * abs(want)
        elif ITEMS[case.item][2] == 'int32':
            ok = (int(got) - int(want)) % (1 << 32) == 0
        else:
            ok = int(got) == int(want)
        return bool(ok), 'got %r, want %r' % (got, want)
    return got == want, 'got %r, want %r' % (got, want)


def measure_group(contenders, quick):
    """Alternating rounds over the contenders (lib, fn): {mode: [median us of each]}, rounds."""
    warmup, runs = (1, 3) if quick else (WARMUP, RUNS)
    longest = 0.0
    for lib, fn in contenders:
        for _ in range(warmup):
            lib.warm(fn)
        lib.sync()
        t0 = time.perf_counter()
        lib.warm(fn)
        longest = max(longest, (time.perf_counter() - t0) * 1e3)
    if longest > LONG_MS and not quick:
        warmup, runs = 1, LONG_RUNS
    times = {}
    for mode in ('hot', 'hot_idle', 'cold'):
        for lib, fn in contenders:
            for _ in range(warmup):
                lib.warm(fn)
        samples = [[] for _ in contenders]
        for _ in range(runs):
            for k, (lib, fn) in enumerate(contenders):
                if mode in lib.modes:
                    samples[k].append(lib.once_us(fn, mode))
        times[mode] = [median(s) if s else None for s in samples]
    for k, (lib, _) in enumerate(contenders):  # the host clock has no hot_idle of its own: hot is it
        if times['hot_idle'][k] is None:
            times['hot_idle'][k] = times['hot'][k]
    return times, runs


def print_row(r):
    what = r['config'] + ('/%d' % r['segment_size'] if r['segment_size'] else '')
    print('%-5s %-9s %-14s %11d %-52s hot %9s  idle %9s  cold %9s us  %6s GB/s  %s%s' % (
        r['library'], r['family'], what, r['n'], r['name'][:52], fmt(r['hot_us'], '.1f'), fmt(r['hot_idle_us'], '.1f'),
        fmt(r['cold_us'], '.1f'), fmt(r['cold_gbps'], '.0f'),
        'error' if r.get('error') else 'agrees' if r['agrees'] else 'DISAGREES',
        ('  [' + r['error'] + ']') if r.get('error') else ''), flush=True)


def run(libs, plan, quick, save=None):
    """The rows of every case; save(rows) after each buffer (a run cut short keeps what it measured)."""
    tl = libs['torch']
    rows = []
    for family, item, n, cases in plan:
        x = make_buffer(tl, item, n)
        ref = references(tl, family, x, [c.segment_size for c in cases if c.segment_size])
        views = {name: lib.view(x) for name, lib in libs.items()}
        for case in cases:
            contenders, meta = [], []
            for name, lib in libs.items():
                base = {'kind': 'timing', 'family': case.family, 'config': case.config, 'item': item, 'op': case.op,
                        'n': n, 'bytes': case.bytes, 'segment_size': case.segment_size, 'segments': case.segments,
                        'library': lib.library, 'version': lib.version, 'clock': lib.clock, 'name': '',
                        'hot_us': None, 'hot_idle_us': None, 'cold_us': None, 'hot_gbps': None, 'cold_gbps': None,
                        'agrees': False, 'runs': None, 'note': ''}
                try:
                    aux = lib.aux(case, views[name])
                    made = lib.call(case, views[name], aux)
                    if made is None:
                        continue
                    base['name'], fn, note = made
                    base['note'] = note
                    out = fn()
                    base['agrees'], detail = check(lib, case, out, ref)
                    del out
                    if not base['agrees']:
                        base['note'] = '; '.join(s for s in (note, detail) if s)
                    contenders.append((lib, fn))
                    meta.append(base)
                except Exception as e:
                    base['error'] = '%s: %s' % (type(e).__name__, str(e).splitlines()[0][:200] if str(e) else '')
                    print_row(base)
                    rows.append(base)
            if contenders:
                times, runs = measure_group(contenders, quick)
                for k, row in enumerate(meta):
                    row.update(hot_us=round(times['hot'][k], 3), hot_idle_us=round(times['hot_idle'][k], 3),
                               cold_us=round(times['cold'][k], 3), runs=runs,
                               hot_gbps=round(gbps(case.bytes, times['hot'][k]), 1),
                               cold_gbps=round(gbps(case.bytes, times['cold'][k]), 1))
                    print_row(row)
                    rows.append(row)
            contenders = meta = None
        views = x = None
        for lib in libs.values():
            lib.free()
        if save:
            save(rows)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--out', metavar='FILE', help='write the results as JSON to FILE')
    parser.add_argument('--families', default=','.join(FAMILIES), help='default: %(default)s')
    parser.add_argument('--items', default=','.join(ITEMS), help='default: %(default)s')
    parser.add_argument('--libraries', default=','.join(LIBRARIES), help='default: %(default)s')
    parser.add_argument('--min-log2', type=int, default=10)
    parser.add_argument('--max-log2', type=int, default=30)
    parser.add_argument('--step', type=int, default=2)
    parser.add_argument('--cascade-lib', metavar='SO', help='libcascade-python-calls.so (default: build*/bench/)')
    parser.add_argument('--quick', action='store_true', help='1 warm-up and 3 rounds: a smoke test')
    args = parser.parse_args()  # an unknown option: status 2
    families = names(args.families, FAMILIES, 'family', parser)
    items = names(args.items, list(ITEMS), 'item', parser)
    libraries = names(args.libraries, LIBRARIES, 'library', parser)
    if 'torch' not in libraries:
        libraries = ['torch'] + libraries  # it makes the buffers and the references
    sizes = [1 << k for k in range(args.min_log2, args.max_log2 + 1, max(1, args.step))]

    doc = {'gpu': None, 'nvidia_driver': nvidia_driver(), 'cuda_runtime': {},
           'date': datetime.date.today().isoformat(),
           'method': ('one buffer a case made by torch (seeded) and shared through DLPack; the contenders of a case in '
                      'alternating rounds; cascade through libcascade-python-calls.so (ctypes) on torch\'s buffer '
                      'and stream, timed by torch\'s events; CUDA events around the call only (torch, CuPy), %d warm-up runs, median '
                      'of %d rounds (%d when a call takes over %g ms); hot: the call queued behind a spin kernel so '
                      'its launch is excluded; hot_idle: the GPU idle first, the launch included; cold: a buffer of '
                      '2x L2 written on the library\'s stream before the spin; JAX by the host clock around '
                      'f(x).block_until_ready() (hot = hot_idle), cold flushing first; results checked against '
                      'float64 / int64 folds%s') % (WARMUP, RUNS, LONG_RUNS, LONG_MS,
                                                    ' [--quick: 1 warm-up, 3 rounds]' if args.quick else ''),
           'versions': {'cascade': None, 'cascade_commit': None, 'torch': None, 'cupy': None, 'jax': None, 'jaxlib': None,
                        'python': platform.python_version(), 'numpy': np.__version__},
           'spin': {}, 'l2_bytes': None, 'flush_bytes': None, 'missing': {}, 'rows': []}
    CascadeLib.path = args.cascade_lib
    libs = {}
    for name in libraries:
        try:
            libs[name] = LOADERS[name]()
        except Exception as e:
            doc['missing'][name] = '%s: %s' % (type(e).__name__, str(e).splitlines()[0][:200] if str(e) else '')
            print('%s: missing (%s)' % (name, doc['missing'][name]), flush=True)
    if 'torch' not in libs:
        print('torch is needed to make the buffers: nothing measured', file=sys.stderr)
        if args.out:
            with open(args.out, 'w') as f:
                json.dump(doc, f, indent=1)
        return 1
    l2 = libs['torch'].l2 or probe_l2()
    doc['l2_bytes'], doc['flush_bytes'] = l2, 2 * l2
    for name, lib in libs.items():
        lib.setup(l2)
        doc['versions'][name] = lib.version
        if name == 'jax':
            doc['versions']['jaxlib'] = lib.jaxlib
        if name == 'cascade':
            doc['versions']['cascade_commit'] = lib.commit
        doc['cuda_runtime'][name] = lib.runtime
        doc['spin'][name] = lib.spin_text
        doc['gpu'] = doc['gpu'] or lib.gpu
        print('%s %s on %s' % (name, lib.version, lib.gpu), flush=True)
    def save(rows):
        doc['rows'] = rows
        if args.out:
            with open(args.out + '.part', 'w') as f:
                json.dump(doc, f, indent=1)
                f.write('\n')
            os.replace(args.out + '.part', args.out)
    save(run(libs, buffers(families, items, sizes), args.quick, save))
    for lib in libs.values():
        lib.close()
    gc.collect()
    if args.out:
        print('wrote %s (%d rows)' % (args.out, len(doc['rows'])), flush=True)
    bad = [r for r in doc['rows'] if r.get('error') or not r['agrees']]
    if bad:
        print('%d of %d rows disagree or failed' % (len(bad), len(doc['rows'])), file=sys.stderr)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
