#!/usr/bin/env python3
"""What numpy, PyTorch, CuPy and JAX give for minimum, maximum, argmin and argmax with NaN and signed
zeros in the data: the rivals' column of docs/ops.md's "Semantics" table. Prints one line a library
and question, the result's value and bits; a library that is not installed is skipped. Torch, CuPy
and JAX run on the GPU where they find one. Usage: scripts/rival_semantics.py"""
import struct
import sys

cases = {
    'min [3, NaN, -7]': ([3.0, float('nan'), -7.0], 'min'),
    'min [NaN, 3, -7]': ([float('nan'), 3.0, -7.0], 'min'),
    'min [+0, -0]': ([0.0, -0.0], 'min'),
    'min [-0, +0]': ([-0.0, 0.0], 'min'),
    'max [-0, +0]': ([-0.0, 0.0], 'max'),
    'max [+0, -0]': ([0.0, -0.0], 'max'),
    'nanmin [NaN, 3, -7]': ([float('nan'), 3.0, -7.0], 'nanmin'),
    'argmin [3, NaN, -7, NaN]': ([3.0, float('nan'), -7.0, float('nan')], 'argmin'),
    'argmin [+0, -0]': ([0.0, -0.0], 'argmin'),
    'argmax [-0, +0]': ([-0.0, 0.0], 'argmax'),
    'min of 2^20 with one NaN at 2^19+1': (None, 'min'),
}


def bits(x):
    return '0x%08x' % struct.unpack('<I', struct.pack('<f', float(x)))[0]


def show(library, question, value):
    if isinstance(value, int) or (hasattr(value, 'dtype') and 'int' in str(value.dtype)):
        print('%-8s %-36s index %d' % (library, question, int(value)))
        return
    try:
        v = float(value)
        text = '%s %s' % (repr(v) if v == v else 'nan', bits(v))
        if v == 0:
            text = ('-0.0' if str(v).startswith('-') else '+0.0') + ' ' + bits(v)
    except (TypeError, ValueError):
        text = str(value)
    print('%-8s %-36s %s' % (library, question, text))


def run(library, xp, to_array, call):
    for question, (data, op) in cases.items():
        if data is None:
            data = [1.0] * (1 << 20)
            data[(1 << 19) + 1] = float('nan')
        try:
            a = to_array(data)
            show(library, question, call(xp, op, a))
        except Exception as e:  # a library without the operation
            show(library, question, 'error: %s' % type(e).__name__)


def numpy_call(np, op, a):
    return getattr(np, op)(a)


try:
    import numpy as np
    run('numpy', np, lambda d: np.array(d, dtype=np.float32), numpy_call)
except ImportError:
    print('numpy: not installed', file=sys.stderr)

try:
    import torch
    device = 'cuda' if torch.cuda.is_available() else 'cpu'

    def torch_call(t, op, a):
        if op == 'nanmin':
            return torch.min(torch.where(torch.isnan(a), torch.tensor(float('inf'), device=a.device), a)).item()
        return getattr(torch, op)(a).item()
    run('torch-' + device, torch, lambda d: torch.tensor(d, dtype=torch.float32, device=device), torch_call)
except ImportError:
    print('torch: not installed', file=sys.stderr)

try:
    import cupy as cp
    run('cupy', cp, lambda d: cp.array(d, dtype=cp.float32), lambda xp, op, a: getattr(xp, op)(a).item())
except ImportError:
    print('cupy: not installed', file=sys.stderr)

try:
    import jax
    import jax.numpy as jnp
    run('jax-' + jax.default_backend(), jnp, lambda d: jnp.array(d, dtype=jnp.float32),
        lambda xp, op, a: getattr(xp, op)(a).item())
except ImportError:
    print('jax: not installed', file=sys.stderr)
