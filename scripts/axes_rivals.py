#!/usr/bin/env python3
"""PyTorch, CuPy and JAX on the axis reductions that cascade-axes times: column sums (axis 0), row
sums (axis 1), dims (0, 2) of 3-D tensors, and var_mean of all items and along dim 0, float32 items
uniform in [0, 1) made on the GPU by each library's own seeded generator, C-ordered.

Method, as src/measure/timer.cuh times cascade (scripts/gpu_libraries.py says how): warm-up runs
first (5), then the median of 31 runs (5 when one call takes over 20 ms), hot, hot_idle and cold;
JAX by the host clock. Each library runs all its cases in this process,
one library after the other, freeing its arrays before the next. Every result is checked against
numpy float64 on its first 8 outputs (var_mean of all items: on all of them), relative tolerance
1e-4 ("agrees"). GB/s counts the input's bytes read once.

    python3 scripts/axes_rivals.py --out bench/results/axes-rivals-h200-DATE.json
    python3 scripts/axes_rivals.py --families columns,rows --libraries torch,cupy --quick

Options: --out FILE (JSON; without it, only the table on stdout), --families
columns,rows,dims02,moments (default all), --libraries torch,cupy,jax (default all; one that does not
import is recorded under "missing"), --quick (1 warm-up and 3 runs: a smoke test). A library whose
import fails is skipped; an unknown option exits with status 2.
"""
import argparse
import datetime
import gc
import json
import platform
import sys
import time

import numpy as np

from gpu_libraries import (LONG_MS, LONG_RUNS, RUNS, SPIN_US, WARMUP, Cupy as CupyTimed, Jax as JaxTimed,
                           Torch as TorchTimed, fmt, gbps, median, names, nvidia_driver, probe_l2)


FAMILIES = ['columns', 'rows', 'dims02', 'moments']
LIBRARIES = ['torch', 'cupy', 'jax']
SAMPLE = 8               # outputs checked against float64
RTOL = 1e-4
SEED = 20261201


MATRICES = [(2**14, 2**14), (2**20, 2**6), (2**6, 2**20), (2**10, 2**10)]
TENSORS = [(256, 1024, 1024), (1024, 64, 4096)]


class Case:
    def __init__(self, family, shape, axes, op):
        self.family, self.shape, self.axes, self.op = family, tuple(shape), tuple(axes), op
        self.items = int(np.prod(self.shape))
        self.bytes = 4 * self.items
        self.all_items = len(self.axes) == len(self.shape)

    def sample_index(self):
        """The slice of the input behind the first SAMPLE outputs (None: every item)."""
        if self.all_items:
            return None
        kept = [a for a in range(len(self.shape)) if a not in self.axes][0]
        return tuple(slice(0, SAMPLE) if a == kept else slice(None) for a in range(len(self.shape)))


def cases_of(families):
    out = []
    for f in families:
        if f == 'columns':
            out += [Case(f, s, (0,), 'sum') for s in MATRICES]
        elif f == 'rows':
            out += [Case(f, s, (1,), 'sum') for s in MATRICES]
        elif f == 'dims02':
            out += [Case(f, s, (0, 2), 'sum') for s in TENSORS]
        elif f == 'moments':
            out += [Case(f, (2**30,), (0,), 'var_mean'), Case(f, (2**16, 2**10), (0,), 'var_mean')]
    return out


def axes_text(axes):
    return str(axes[0]) if len(axes) == 1 else '(%s)' % ', '.join(str(a) for a in axes)


# ---------------------------------------------------------------------------------------------------
# The libraries (gpu_libraries.py times them), with what these cases make and call.

class Torch(TorchTimed):
    def make(self, shape):
        g = self.t.Generator(device=self.dev)
        g.manual_seed(SEED)
        x = self.t.rand(shape, generator=g, device=self.dev, dtype=self.t.float32)
        self.sync()
        return x

    def call(self, case, x):
        t = self.t
        dim = case.axes[0] if len(case.axes) == 1 else case.axes
        if case.op == 'sum':
            return 'torch.sum(x, dim=%s)' % axes_text(case.axes), (lambda: t.sum(x, dim=dim)), ''
        if case.all_items:
            name, fn = 'torch.var_mean(x, correction=0)', (lambda: t.var_mean(x, correction=0))
        else:
            name, fn = ('torch.var_mean(x, dim=%s, correction=0)' % axes_text(case.axes),
                        (lambda: t.var_mean(x, dim=dim, correction=0)))
        try:
            fn()
        except TypeError:  # a torch before correction=
            if case.all_items:
                name, fn = 'torch.var_mean(x, unbiased=False)', (lambda: t.var_mean(x, unbiased=False))
            else:
                name, fn = ('torch.var_mean(x, dim=%s, unbiased=False)' % axes_text(case.axes),
                            (lambda: t.var_mean(x, dim=dim, unbiased=False)))
        return name, fn, ''


class Cupy(CupyTimed):
    def make(self, shape):
        cp = self.cp
        x = cp.random.RandomState(SEED).random_sample(shape, dtype=cp.float32)
        self.sync()
        return x

    def call(self, case, x):
        ax = case.axes[0] if len(case.axes) == 1 else case.axes
        if case.op == 'sum':
            return 'x.sum(axis=%s)' % axes_text(case.axes), (lambda: x.sum(axis=ax)), ''
        if case.all_items:
            return '(x.var(), x.mean())', (lambda: (x.var(), x.mean())), 'two calls, as written'
        return ('(x.var(axis=%s), x.mean(axis=%s))' % (axes_text(case.axes), axes_text(case.axes)),
                (lambda: (x.var(axis=ax), x.mean(axis=ax))), 'two calls, as written')


class Jax(JaxTimed):
    def make(self, shape):
        jax, jnp = self.jax, self.jnp
        key = jax.random.key(SEED) if hasattr(jax.random, 'key') else jax.random.PRNGKey(SEED)
        x = jax.jit(lambda k: jax.random.uniform(k, shape, dtype=jnp.float32))(key)
        x.block_until_ready()
        return x

    def call(self, case, x):
        jax, jnp = self.jax, self.jnp
        ax = case.axes[0] if len(case.axes) == 1 else case.axes
        if case.op == 'sum':
            f = jax.jit(lambda v: jnp.sum(v, axis=ax))
            return 'jit(jnp.sum(x, axis=%s))' % axes_text(case.axes), (lambda: f(x)), self.note
        if case.all_items:
            f = jax.jit(lambda v: (jnp.var(v), jnp.mean(v)))
            return 'jit((jnp.var(x), jnp.mean(x)))', (lambda: f(x)), self.note
        f = jax.jit(lambda v: (jnp.var(v, axis=ax), jnp.mean(v, axis=ax)))
        return ('jit((jnp.var(x, axis=%s), jnp.mean(x, axis=%s)))' % (axes_text(case.axes), axes_text(case.axes)),
                (lambda: f(x)), self.note)


LOADERS = {'torch': Torch, 'cupy': Cupy, 'jax': Jax}


# ---------------------------------------------------------------------------------------------------

def reference(lib, case, x):
    """float64 values of the first SAMPLE outputs (var then mean for var_mean), from the input on the host."""
    idx = case.sample_index()
    if idx is None:  # every item: one pass over the host copy, shifted by 0.5 (the values are in [0, 1))
        h = lib.host(x).reshape(-1)
        s = ss = 0.0
        chunk = 1 << 24
        for i in range(0, h.size, chunk):
            d = h[i:i + chunk].astype(np.float64) - 0.5
            s += float(d.sum())
            ss += float(d @ d)
        del h
        mean_d = s / case.items
        var, mean = ss / case.items - mean_d * mean_d, mean_d + 0.5
        return np.array([var, mean] if case.op == 'var_mean' else [s + 0.5 * case.items])
    xs = lib.host(x[idx]).astype(np.float64)
    if case.op == 'sum':
        return xs.sum(axis=case.axes).reshape(-1)[:SAMPLE]
    return np.concatenate([xs.var(axis=case.axes).reshape(-1)[:SAMPLE], xs.mean(axis=case.axes).reshape(-1)[:SAMPLE]])


def got_values(lib, case, out):
    parts = out if isinstance(out, (tuple, list)) else (out,)
    vals = []
    for p in parts:
        if case.all_items:
            vals.append(np.asarray(lib.host(p), dtype=np.float64).reshape(-1))
        else:
            vals.append(np.asarray(lib.host(p[:SAMPLE]), dtype=np.float64).reshape(-1))
    return np.concatenate(vals)


def max_rel_err(got, ref):
    """The largest relative error of got against ref (inf: shapes differ or a NaN)."""
    if got.shape != ref.shape or got.size == 0:
        return float('inf')
    err = np.abs(got - ref) / np.maximum(np.abs(ref), 1e-30)
    return float('inf') if not np.all(np.isfinite(err)) else float(err.max())


def measure(lib, case, fn, quick):
    warmup, runs = (1, 3) if quick else (WARMUP, RUNS)
    for _ in range(warmup):
        lib.warm(fn)
    lib.sync()
    t0 = time.perf_counter()
    lib.warm(fn)
    if (time.perf_counter() - t0) * 1e3 > LONG_MS and not quick:
        warmup, runs = 1, LONG_RUNS  # as timer.cuh's median_us_budget: one warm-up before each mode's runs
    us = {}
    for mode in lib.modes:
        for _ in range(warmup):
            lib.warm(fn)
        us[mode] = median([lib.once_us(fn, mode) for _ in range(runs)])
    if 'hot_idle' not in us:
        us['hot_idle'] = us['hot']
    return us, runs


def print_row(r):
    shape = 'x'.join(str(s) for s in r['shape'])
    print('%-5s %-7s %-17s %-44s hot %9s  idle %9s  cold %9s us  %6s GB/s  %s%s' % (
        r['library'], r['family'], shape, r['name'][:44], fmt(r['hot_us'], '.1f'), fmt(r['hot_idle_us'], '.1f'),
        fmt(r['cold_us'], '.1f'), fmt(r['hot_gbps'], '.0f'),
        'error' if r.get('error') else 'agrees' if r['agrees'] else 'DISAGREES',
        ('  [' + r['error'] + ']') if r.get('error') else ''), flush=True)


def run_library(lib, cases, quick, l2):
    rows = []
    lib.setup(l2)
    for case in cases:
        row = {'kind': 'timing', 'family': case.family, 'shape': list(case.shape), 'axes': list(case.axes),
               'item': 'float32', 'items': case.items, 'bytes': case.bytes, 'name': '', 'library': lib.library,
               'version': lib.version, 'clock': lib.clock, 'hot_us': None, 'hot_idle_us': None, 'cold_us': None,
               'hot_gbps': None, 'cold_gbps': None, 'agrees': False, 'max_rel_err': None, 'runs': None,
               'note': ''}
        x = fn = None
        try:
            x = lib.make(case.shape)
            name, fn, note = lib.call(case, x)
            row['name'] = name
            row['note'] = '; '.join(dict.fromkeys(n for n in (note, lib.note) if n))
            us, runs = measure(lib, case, fn, quick)
            row.update(hot_us=round(us['hot'], 3), hot_idle_us=round(us['hot_idle'], 3), cold_us=round(us['cold'], 3),
                       runs=runs)
            row['hot_gbps'] = round(gbps(case.bytes, us['hot']), 1)
            row['cold_gbps'] = round(gbps(case.bytes, us['cold']), 1)
            out = fn()
            got = got_values(lib, case, out)
            del out
            ref = reference(lib, case, x)
            err = max_rel_err(got, ref)
            row['agrees'] = err <= RTOL
            row['max_rel_err'] = err if err != float('inf') else None
            if not row['agrees']:
                row['note'] = '; '.join(n for n in (row['note'], 'got %s, float64 %s' % (
                    np.array2string(got[:4], precision=8), np.array2string(ref[:4], precision=8))) if n)
        except Exception as e:
            row['error'] = '%s: %s' % (type(e).__name__, str(e).splitlines()[0][:200] if str(e) else '')
        finally:
            fn = None
            if x is not None and hasattr(lib, 'delete'):
                lib.delete(x)
            x = None
            lib.free()
        print_row(row)
        rows.append(row)
    lib.close()
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--out', metavar='FILE', help='write the results as JSON to FILE')
    parser.add_argument('--families', default=','.join(FAMILIES), help='default: %(default)s')
    parser.add_argument('--libraries', default=','.join(LIBRARIES), help='default: %(default)s')
    parser.add_argument('--quick', action='store_true', help='1 warm-up and 3 runs: a smoke test')
    args = parser.parse_args()  # an unknown option: status 2
    families = names(args.families, FAMILIES, 'family', parser)
    libraries = names(args.libraries, LIBRARIES, 'library', parser)
    cases = cases_of(families)

    doc = {'gpu': None, 'nvidia_driver': nvidia_driver(), 'cuda_runtime': {},
           'date': datetime.date.today().isoformat(),
           'method': ('float32 uniform in [0, 1), C-ordered; CUDA events around the call only (torch, CuPy), %d warm-up '
                      'runs, median of %d (%d when a call takes over %g ms); hot: the same buffers, the call queued '
                      'behind a %d us spin kernel so its launch is excluded; hot_idle: the GPU idle first, the launch '
                      'included; cold: a buffer of 2x L2 written on the library\'s stream before the spin; JAX by the '
                      'host clock around f(x).block_until_ready() (hot = hot_idle), cold flushing first; results '
                      'checked on %d outputs against numpy float64 (rtol %g)%s') % (
               WARMUP, RUNS, LONG_RUNS, LONG_MS, SPIN_US, SAMPLE, RTOL, ' [--quick: 1 warm-up, 3 runs]' if args.quick else ''),
           'versions': {'torch': None, 'cupy': None, 'jax': None, 'jaxlib': None,
                        'python': platform.python_version(), 'numpy': np.__version__},
           'spin': {}, 'l2_bytes': None, 'flush_bytes': None, 'missing': {}, 'rows': []}
    l2 = None
    for name in libraries:
        try:
            lib = LOADERS[name]()
        except Exception as e:
            doc['missing'][name] = '%s: %s' % (type(e).__name__, str(e).splitlines()[0][:200] if str(e) else '')
            print('%s: missing (%s)' % (name, doc['missing'][name]), flush=True)
            continue
        doc['versions'][name] = lib.version
        if name == 'jax':
            doc['versions']['jaxlib'] = lib.jaxlib
        doc['cuda_runtime'][name] = lib.runtime
        doc['gpu'] = doc['gpu'] or lib.gpu
        l2 = l2 or lib.l2 or probe_l2()
        doc['l2_bytes'], doc['flush_bytes'] = l2, 2 * l2
        print('%s %s on %s' % (name, lib.version, lib.gpu), flush=True)
        doc['rows'] += run_library(lib, cases, args.quick, l2)
        doc['spin'][name] = lib.spin_text
        del lib
        gc.collect()
    if not doc['rows']:
        print('no library could run', file=sys.stderr)
        if args.out:
            with open(args.out, 'w') as f:
                json.dump(doc, f, indent=1)
        return 1
    if args.out:
        with open(args.out, 'w') as f:
            json.dump(doc, f, indent=1)
            f.write('\n')
        print('wrote %s (%d rows)' % (args.out, len(doc['rows'])), flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
