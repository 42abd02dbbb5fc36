# source: https://github.com/girving/pentago/blob/28adcccceb78a70716925853bfb650936c049ecb/learn/batching.py
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: batch_vmap builds its jax.jit inside a decorator factory and is called with inputs of length 0, 5, 17, 22 and 100, but it pads every input to whole chunks of the fixed batch size, so the inner jitted function sees one shape and compiles once.

# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")


# --- end harness ---
from functools import wraps
import jax
import jax.numpy as jnp
import numpy as np


def batch_vmap(batch):
  """jax.jit(jax.vmap(f)), but avoiding recompilation if shape[0] changes"""
  def inner(f):
    @jax.jit
    def batched(*args):
      return jax.vmap(f)(*args)

    @wraps(f)
    def g(*args):
      n = len(args[0])
      batches = max(1, -(-n // batch))
      padding = (0, batches * batch - n),
      last = n - (batches - 1) * batch
      mode = 'edge' if n else 'constant'
      def prep(x):
        assert len(x) == n
        x = np.pad(x, padding + ((0,0),)*(x.ndim-1), mode=mode)
        return x.reshape((batches,batch) + x.shape[1:])
      ys = [batched(*xs) for xs in zip(*map(prep, args))]
      def take(y):
        return np.concatenate(y[:-1] + (y[-1][:last],))
      if isinstance(ys[0], tuple):
        return tuple(take(y) for y in zip(*ys))
      else:
        return take(tuple(ys))

    return g
  return inner


def test_batch_vmap_tuple():
  def f(x):
    return x + 1, 2 * x

  batch = 17
  sf = jnp.vectorize(f, signature='()->(),()')
  bf = batch_vmap(batch)(f)
  x = jnp.arange(100)
  sy, sz = sf(x)
  for n in 0, 5, batch, batch + 5, 100:
    y, z = bf(x[:n])
    assert np.all(sy[:n] == y)
    assert np.all(sz[:n] == z)


test_batch_vmap_tuple()  # scaffolding
_report({"jit(batched)"}, 5)  # scaffolding
