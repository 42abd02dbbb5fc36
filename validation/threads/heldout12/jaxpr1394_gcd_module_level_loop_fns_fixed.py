# source: https://github.com/jax-ml/jax/pull/1394
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The PR's change ("Ensure cache hits for gcd, lcm"): cond and body move to module level as _gcd_cond_fn/_gcd_body_fn, so repeated op-by-op calls reuse one compiled while loop.

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
import jax.numpy as jnp  # scaffolding
from jax import lax  # scaffolding

# scaffolding: lax_numpy's module-level names used by gcd
issubdtype, integer, where, any = jnp.issubdtype, jnp.integer, jnp.where, jnp.any
_dtype = jnp.result_type
_promote_dtypes = lambda *xs: [jnp.asarray(x, jnp.result_type(*xs)) for x in xs]
broadcast_arrays = jnp.broadcast_arrays
_const = lambda x, v: jnp.zeros_like(x) + v  # stand-in for lax._const

def _gcd_cond_fn(xs):
  x1, x2 = xs
  return any(x2 != 0)

def _gcd_body_fn(xs):
  x1, x2 = xs
  x1, x2 = (where(x2 != 0, x2, x1),
            where(x2 != 0, lax.rem(x1, x2), _const(x2, 0)))
  return (where(x1 < x2, x2, x1), where(x1 < x2, x1, x2))

def gcd(x1, x2):
  if (not issubdtype(_dtype(x1), integer) or
      not issubdtype(_dtype(x2), integer)):
    raise ValueError("Arguments to gcd must be integers.")
  x1, x2 = _promote_dtypes(lax.abs(x1), lax.abs(x2))
  x1, x2 = broadcast_arrays(x1, x2)
  gcd, _ = lax.while_loop(_gcd_cond_fn, _gcd_body_fn, (x1, x2))
  return gcd


a = jnp.array([12, 18, 35, 100], jnp.int32)  # scaffolding
for k in range(3):  # scaffolding: gcd called op by op (outside jit) three times
  print(gcd(a, jnp.array([8, 27, 14, 75], jnp.int32) + k))  # scaffolding
_report({"jit(while)"}, 3)  # scaffolding
