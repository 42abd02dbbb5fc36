# source: https://github.com/jax-ml/jax/pull/3069
# expect: jit-in-loop-or-body at line 84
# runtime: COMPILES 3 CALLS 3
# why: Before the PR, every call of _threefry2x32_lowering defines a new step closure and hands it to lax.fori_loop; the loop's cache keys on that fresh function, so the rolled loop is retraced and recompiled on every evaluation.

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
import numpy as onp  # scaffolding
import numpy as np  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax import lax  # scaffolding

asarray = jnp.asarray  # scaffolding: jax/random.py imported asarray from jax.numpy


def _make_rotate_left(dtype):
  if not np.issubdtype(dtype, onp.integer):
    raise TypeError("_rotate_left only accepts integer dtypes.")
  nbits = onp.array(np.iinfo(dtype).bits, dtype)

  def _rotate_left(x, d):
    if lax.dtype(d) != lax.dtype(x):
      d = lax.convert_element_type(d, x.dtype)
    return lax.shift_left(x, d) | lax.shift_right_logical(x, nbits - d)
  return _rotate_left

def _threefry2x32_lowering(key1, key2, x1, x2, use_rolled_loops=True):
  """Apply the Threefry 2x32 hash.

  Args:
    keypair: a pair of 32bit unsigned integers used for the key.
    count: an array of dtype uint32 used for the counts.

  Returns:
    An array of dtype uint32 with the same shape as `count`.
  """
  x = [x1, x2]
  rotate_left = _make_rotate_left(onp.uint32)

  def apply_round(v, rot):
    v = v[:]
    v[0] = v[0] + v[1]
    v[1] = rotate_left(v[1], rot)
    v[1] = v[0] ^ v[1]
    return v


  rotations = [onp.array([13, 15, 26, 6], dtype=onp.uint32),
               onp.array([17, 29, 16, 24], dtype=onp.uint32)]
  ks = [key1, key2, key1 ^ key2 ^ onp.uint32(0x1BD11BDA)]

  x[0] = x[0] + ks[0]
  x[1] = x[1] + ks[1]

  if use_rolled_loops:
    def rotate_list(xs): return xs[1:] + xs[:1]
    def step(i, state):
      x, ks, rotations = state
      for r in rotations[0]:
        x = apply_round(x, r)
      new_x = [x[0] + ks[0], x[1] + ks[1] + asarray(i + 1, dtype=onp.uint32)]
      return new_x, rotate_list(ks), rotate_list(rotations)
    x, _, _ = lax.fori_loop(0, 5, step, (x, rotate_list(ks), rotations))

  return tuple(x)  # scaffolding: the unrolled else-branch is omitted (use_rolled_loops=True here)


k1, k2 = jnp.uint32(1), jnp.uint32(2)  # scaffolding
for i in range(3):  # scaffolding: three evaluations of the lowering, eagerly (op by op)
  _threefry2x32_lowering(k1, k2, jnp.arange(4, dtype=jnp.uint32), jnp.arange(4, dtype=jnp.uint32) + i)  # scaffolding
_report({"jit(scan)"}, 3)  # scaffolding: fori_loop with a static trip count runs as a scan
