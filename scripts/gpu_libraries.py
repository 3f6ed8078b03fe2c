#!/usr/bin/env python3
"""What scripts/axes_rivals.py and scripts/python_rivals.py share: PyTorch, CuPy and JAX timed as
src/measure/timer.cuh times cascade. Each library class holds the timing (once_us(fn, mode),
warm(fn), sync, spin, flush) and the memory housekeeping (host, free, close); the scripts subclass it
with what they make and call (make(...), call(case, x) -> (name, fn, note)).

Method: CUDA events around the call only, on the library's current stream, in three modes:
  hot       the same buffers again, the GPU held by a 300 us spin kernel while the call is enqueued
            (torch.cuda._sleep; for CuPy a RawKernel spinning on %globaltimer), so that the events time
            the GPU's work and not the host's launch (as nvbench's blocking kernel does);
  hot_idle  the same buffers, the GPU idle when the start event is recorded: the launch included;
  cold      a buffer of twice the L2 written (fill/memset on the library's stream) before the spin,
            evicting the input.
JAX does not expose its stream, so it is timed by the host clock around f(x).block_until_ready()
with the device idle first (clock "host": hot = hot_idle, launch and wait included; cold writes the
flush buffer and waits for it first).
"""
import gc
import os
import re
import subprocess
import time

os.environ.setdefault('XLA_PYTHON_CLIENT_PREALLOCATE', 'false')  # before jax is imported

import numpy as np

SPIN_US = 300            # timer.cuh's spin_ns
WARMUP, RUNS = 5, 31
LONG_MS, LONG_RUNS = 20.0, 5
ASSUMED_MHZ = 1980.0     # an H200's highest SM clock, when none can be read
ASSUMED_L2 = 60 << 20

def runtime_text(v):
    """12080 -> '12.8' (CUDA's integer versions); anything else as text."""
    try:
        v = int(v)
        return '%d.%d' % (v // 1000, (v % 1000) // 10)
    except (TypeError, ValueError):
        return None if v is None else str(v)


# ---------------------------------------------------------------------------------------------------
# Libraries. Each: library, version, runtime, gpu, clock, spin_text, modes; once_us(fn, mode), warm(fn),
# host(array) -> numpy, free(), close(); the scripts add make(...) and call(case, x) -> (name, fn, note).

class EventTimed:
    """CUDA events on the library's current stream, as timer.cuh's once_ms."""
    clock = 'gpu'
    modes = ('hot', 'hot_idle', 'cold')

    def once_us(self, fn, mode):
        if mode == 'hot_idle':
            self.sync()
        else:
            if mode == 'cold':
                self.flush()
            self.spin()
        self.record_start()
        out = fn()  # held until the stop event is done
        self.record_stop()
        us = self.elapsed_us()
        del out
        return us

    def warm(self, fn):
        out = fn()
        self.sync()
        del out


class Torch(EventTimed):
    library = 'torch'

    def __init__(self):
        import torch
        if not torch.cuda.is_available():
            raise RuntimeError('torch.cuda.is_available() is False')
        self.t = torch
        self.dev = torch.device('cuda', 0)
        torch.cuda.set_device(self.dev)
        self.version = torch.__version__
        self.runtime = torch.version.cuda
        self.gpu = torch.cuda.get_device_name(0)
        self.start = torch.cuda.Event(enable_timing=True)
        self.stop = torch.cuda.Event(enable_timing=True)
        self.l2 = plausible_l2(getattr(torch.cuda.get_device_properties(0), 'L2_cache_size', 0))
        self.flush_buf = None
        self.note = ''
        self.spin_cycles = 0
        self.spin_text = 'none'

    def setup(self, l2):
        t = self.t
        self.flush_buf = t.empty(2 * l2, dtype=t.uint8, device=self.dev)
        if not hasattr(t.cuda, '_sleep'):
            self.note = 'no torch.cuda._sleep: hot runs unspun (launch included)'
            return
        # Cycles for SPIN_US at the highest clock among: torch.cuda.clock_rate() (nvml, the clock of the
        # moment), the rate _sleep shows against events, and an H200's 1980 MHz: at least SPIN_US at any
        # lower clock.
        mhz = [ASSUMED_MHZ]
        try:
            mhz.append(float(t.cuda.clock_rate(0)))
        except Exception:
            pass
        try:
            cycles = 2_000_000
            t.cuda._sleep(cycles)
            t.cuda.synchronize()
            for _ in range(3):
                self.start.record()
                t.cuda._sleep(cycles)
                self.stop.record()
                self.stop.synchronize()
                mhz.append(cycles / (self.start.elapsed_time(self.stop) * 1e3))
        except Exception:
            pass
        self.spin_cycles = int(SPIN_US * max(mhz))
        self.spin_text = 'torch.cuda._sleep(%d) (%d us at %.0f MHz)' % (self.spin_cycles, SPIN_US, max(mhz))

    def sync(self):
        self.t.cuda.synchronize()

    def spin(self):
        if self.spin_cycles:
            self.t.cuda._sleep(self.spin_cycles)

    def flush(self):
        self.flush_buf.zero_()

    def record_start(self):
        self.start.record()

    def record_stop(self):
        self.stop.record()

    def elapsed_us(self):
        self.stop.synchronize()
        return self.start.elapsed_time(self.stop) * 1e3

    def host(self, a):
        return a.detach().cpu().numpy()

    def free(self):
        gc.collect()
        self.t.cuda.synchronize()
        self.t.cuda.empty_cache()

    def close(self):
        self.flush_buf = None
        self.free()


SPIN_SOURCE = r'''
extern "C" __global__ void cascade_spin(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}
'''


class Cupy(EventTimed):
    library = 'cupy'

    def __init__(self):
        import cupy
        if cupy.cuda.runtime.getDeviceCount() < 1:
            raise RuntimeError('CuPy sees no GPU')
        self.cp = cupy
        cupy.cuda.Device(0).use()
        self.version = cupy.__version__
        self.runtime = runtime_text(cupy.cuda.runtime.runtimeGetVersion())
        name = cupy.cuda.runtime.getDeviceProperties(0)['name']
        self.gpu = name.decode() if isinstance(name, bytes) else str(name)
        self.start = cupy.cuda.Event()
        self.stop = cupy.cuda.Event()
        self.l2 = cupy_l2(cupy)
        self.flush_buf = None
        self.kernel = None
        self.note = ''
        self.spin_text = 'none'

    def setup(self, l2):
        cp = self.cp
        self.flush_buf = cp.empty(2 * l2, dtype=cp.uint8)
        try:
            self.kernel = cp.RawKernel(SPIN_SOURCE, 'cascade_spin')
            self.spin()
            self.sync()
            self.spin_text = 'cupy.RawKernel on %%globaltimer, %d us' % SPIN_US
        except Exception as e:  # no NVRTC
            self.kernel = None
            self.note = 'no spin kernel (%s): hot runs unspun (launch included)' % type(e).__name__

    def sync(self):
        self.cp.cuda.runtime.deviceSynchronize()

    def spin(self):
        if self.kernel is not None:
            self.kernel((1,), (1,), (np.uint64(SPIN_US * 1000),))

    def flush(self):
        self.flush_buf.fill(0)  # a memset on the current stream

    def record_start(self):
        self.start.record()

    def record_stop(self):
        self.stop.record()

    def elapsed_us(self):
        self.stop.synchronize()
        return self.cp.cuda.get_elapsed_time(self.start, self.stop) * 1e3

    def host(self, a):
        return self.cp.asnumpy(a)

    def free(self):
        gc.collect()
        self.sync()
        self.cp.get_default_memory_pool().free_all_blocks()
        self.cp.get_default_pinned_memory_pool().free_all_blocks()

    def close(self):
        self.flush_buf = None
        self.kernel = None
        self.free()


class Jax:
    library = 'jax'
    clock = 'host'
    modes = ('hot', 'cold')  # hot_idle is hot: the host clock includes the launch either way

    def __init__(self):
        import jax
        import jax.numpy as jnp
        if jax.default_backend() != 'gpu':
            raise RuntimeError('JAX has no GPU backend (default backend: %s)' % jax.default_backend())
        self.jax, self.jnp = jax, jnp
        self.version = jax.__version__
        try:
            import jaxlib
            self.jaxlib = getattr(jaxlib, '__version__', None) or jaxlib.version.__version__
        except Exception:
            self.jaxlib = None
        self.dev = jax.devices('gpu')[0]
        self.gpu = self.dev.device_kind
        self.runtime = None
        try:
            from jax._src.lib import cuda_versions
            self.runtime = runtime_text(cuda_versions.cuda_runtime_get_version())
        except Exception:
            try:
                self.runtime = str(self.dev.client.platform_version)
            except Exception:
                pass
        self.l2 = None
        self.flush_buf = None
        self.flush_fn = None
        self.note = ('JAX does not expose its stream: host clock around f(x).block_until_ready(), the device '
                     'idle first; hot_us = hot_idle_us (launch and wait included)')
        self.spin_text = 'none (host clock)'

    def setup(self, l2):
        jnp = self.jnp
        self.flush_buf = jnp.zeros((2 * l2,), dtype=jnp.uint8)
        self.flush_fn = self.jax.jit(lambda b: b + jnp.uint8(1), donate_argnums=0)
        self.flush()

    def wait(self, out):
        for leaf in self.jax.tree_util.tree_leaves(out):
            leaf.block_until_ready()

    def flush(self):
        self.flush_buf = self.flush_fn(self.flush_buf)
        self.flush_buf.block_until_ready()

    def once_us(self, fn, mode):
        if mode == 'cold':
            self.flush()
        # the device is idle: every earlier result was waited for
        t0 = time.perf_counter()
        out = fn()
        self.wait(out)
        us = (time.perf_counter() - t0) * 1e6
        del out
        return us

    def warm(self, fn):
        self.wait(fn())

    def sync(self):
        pass

    def host(self, a):
        return np.asarray(a)

    def delete(self, x):
        try:
            x.delete()
        except Exception:
            pass

    def free(self):
        gc.collect()

    def close(self):
        if self.flush_buf is not None:
            self.delete(self.flush_buf)
        self.flush_buf = None
        try:
            self.jax.clear_caches()
        except Exception:
            pass
        gc.collect()


LOADERS = {'torch': Torch, 'cupy': Cupy, 'jax': Jax}


def median(values):
    v = sorted(values)
    return v[len(v) // 2]


def gbps(nbytes, us):
    return None if not us else nbytes / us / 1e3


def fmt(v, spec):
    return '-' if v is None else format(v, spec)


def nvidia_driver():
    try:
        with open('/proc/driver/nvidia/version') as f:
            m = re.search(r'Kernel Module(?: for \S+)?\s+(\d+(?:\.\d+)+)', f.read())
            if m:
                return m.group(1)
    except OSError:
        pass
    try:
        out = subprocess.run(['nvidia-smi', '--query-gpu=driver_version', '--format=csv,noheader'],
                             capture_output=True, text=True, timeout=30).stdout.strip().splitlines()
        return out[0].strip() if out else None
    except Exception:
        return None


def plausible_l2(v):
    """v as the L2's bytes, or None where it cannot be one (unread, or under 1 MiB)."""
    try:
        v = int(v or 0)
    except (TypeError, ValueError):
        return None
    return v if v >= (1 << 20) else None


def cupy_l2(cupy):
    """The L2's bytes as CuPy reads them: the device properties, else cudaDevAttrL2CacheSize (38)."""
    try:
        l2 = plausible_l2(cupy.cuda.runtime.getDeviceProperties(0).get('l2CacheSize'))
        if l2:
            return l2
    except Exception:
        pass
    try:
        return plausible_l2(cupy.cuda.runtime.deviceGetAttribute(38, 0))
    except Exception:
        return None


def probe_l2():
    """The L2's bytes by torch, else CuPy, else an H200's 60 MiB."""
    try:
        import torch
        l2 = plausible_l2(getattr(torch.cuda.get_device_properties(0), 'L2_cache_size', 0))
        if l2:
            return l2
    except Exception:
        pass
    try:
        import cupy
        l2 = cupy_l2(cupy)
        if l2:
            return l2
    except Exception:
        pass
    print('L2 size unknown: flushing 2 x %d MiB' % (ASSUMED_L2 >> 20), flush=True)
    return ASSUMED_L2


def names(text, known, what, parser):
    got = [s.strip() for s in text.split(',') if s.strip()]
    bad = [s for s in got if s not in known]
    if bad or not got:
        parser.error('unknown %s: %s (known: %s)' % (what, ','.join(bad) or '(none)', ','.join(known)))
    return [k for k in known if k in got]

