# source: https://github.com/jax-ml/jax/pull/1133
# expect: stale-closure at line 49
# runtime: COMPILES 1 CALLS 2
# why: next_key() rebinds self._key inside the jitted f, so the sequence stores a tracer and the cached second call never advances it: both calls return the same draw (printed, same draw: True).
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

# from __future__ import print_function  # scaffolding: a __future__ import must open the file; a no-op on Python 3
import jax  # scaffolding
from jax.random import PRNGKey, split


def is_prng_key(key):  # scaffolding: the PR's helper is not shown in the thread
  return getattr(key, "shape", None) == (2,)  # scaffolding


class PRNGKeySequence(object):
  """A simple wrapper class for the PRNG split functionality."""

  def __init__(self, key=None):
    if key is None or not is_prng_key(key):
      key = PRNGKey(0)
    self._key = key

  def next_key(self):
    """Splits the current key into two, returning one and storing the other.

    Returns:
      A PRNG key obtained by splitting an internal key.
    """
    self._key, subkey = split(self._key)
    return subkey


from jax import jit  # scaffolding
import jax.numpy as np  # scaffolding

keys = PRNGKeySequence()  # scaffolding


@jit  # scaffolding: mattjj's point, a jit boundary around a function that draws from the sequence
def f(x):  # scaffolding
  return x + jax.random.normal(keys.next_key(), ())  # scaffolding


try:  # scaffolding
  a = f(1.)  # scaffolding
  b = f(1.)  # scaffolding: the second call reuses the compiled code, so next_key() does not run again
  print(float(a), float(b), "same draw:", bool(a == b))  # scaffolding
  print("sequence key is a tracer:", isinstance(keys._key, jax.core.Tracer))  # scaffolding
  _report({"jit(f)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
