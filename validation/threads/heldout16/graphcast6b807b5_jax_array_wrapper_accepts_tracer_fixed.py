# source: https://github.com/google-deepmind/graphcast/commit/6b807b530274a680fb309c02724d52d697266444
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the commit accepts jax.core.Tracer in __array_ufunc__ (and in _WRAPPED_TYPES/unwrap), so the ufunc is dispatched to jnp and the jitted normalisation compiles once for 2 calls.

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


import jax
import jax.numpy as jnp
import numpy as np


class tree:  # scaffolding: dm-tree's map_structure (not installed), on jax.tree_util
  @staticmethod
  def map_structure(fn, structure):
    return jax.tree_util.tree_map(fn, structure, is_leaf=lambda x: isinstance(x, JaxArrayWrapper))


# graphcast/xarray_jax.py (after the commit; docstrings, comments and the xarray helpers cut)
_WRAPPED_TYPES = (
    jax.Array, jax.ShapeDtypeStruct, jax.stages.ArgInfo, jax.core.Tracer)


def wrap(value):
  """Wraps JAX arrays for use in xarray, passing through other values."""
  if isinstance(value, _WRAPPED_TYPES):
    return JaxArrayWrapper(value)
  else:
    return value


def unwrap(value, require_jax=False):
  """Unwraps wrapped JAX arrays used in xarray, passing through other values."""
  if isinstance(value, JaxArrayWrapper):
    return value.jax_array
  elif isinstance(value, (jax.Array, jax.core.Tracer)):
    return value
  elif require_jax:
    raise TypeError(f'Expected JAX array, found {type(value)}.')
  else:
    return value


def _wrapped(func):
  """Surrounds a function with JAX array unwrapping/wrapping."""
  def wrapped_func(*args, **kwargs):
    args, kwargs = tree.map_structure(unwrap, (args, kwargs))
    result = func(*args, **kwargs)
    return tree.map_structure(wrap, result)
  return wrapped_func


class JaxArrayWrapper(np.lib.mixins.NDArrayOperatorsMixin):
  def __init__(self, jax_array):
    self.jax_array = jax_array

  def __array_ufunc__(self, ufunc, method, *args, **kwargs):
    for x in args:
      if not isinstance(x, (jax.typing.ArrayLike, jax.core.Tracer, type(self))):
        return NotImplemented
    if method != '__call__':
      return NotImplemented
    try:
      func = getattr(jnp, ufunc.__name__)
    except AttributeError:
      return NotImplemented
    kwargs.pop('out', None)
    return _wrapped(func)(*args, **kwargs)

  def __array_function__(self, func, types, args, kwargs):
    try:
      func = getattr(jnp, func.__name__)
    except AttributeError:
      return NotImplemented
    return _wrapped(func)(*args, **kwargs)

  @property
  def shape(self):
    return self.jax_array.shape

  @property
  def dtype(self):
    return self.jax_array.dtype

  @property
  def ndim(self):
    return self.jax_array.ndim

  def __array__(self, dtype=None, context=None):
    return np.asarray(self.jax_array, dtype=dtype)


# scaffolding: a jitted normalisation that mixes a wrapped field (as xarray holds it) with a traced scale
@jax.jit
def normalize(field, mean, stddev):
  wrapped = wrap(field)
  return unwrap((wrapped - mean) / stddev)


calls = 0
try:  # scaffolding
  for s in (1.0, 2.0):
    out = normalize(jnp.arange(6.0).reshape(2, 3), jnp.float32(1.0), jnp.float32(s))
    calls += 1
  _report({"jit(normalize)"}, calls)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
