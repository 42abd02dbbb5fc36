# source: https://github.com/jax-ml/jax/issues/4551
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: on jax 0.10.2 the jitted and eager calls both return shape (11,) (a Python int index next to an array index is advanced indexing in both modes), so jit(fn) compiles once and agrees with the unjitted function.

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
import jax
import jax.numpy as jnp

def fn(a, qs, idx):
  return a[idx, :, qs].mean(axis=-1).squeeze()

jit_fn = jax.jit(fn)

a = jnp.ones((24, 8, 11))
qs = jnp.arange(11)
print(fn(a, qs, 4).shape) # outputs (8,) as expected
print(jit_fn(a, qs, 4).shape) # outputs (11,)
_report({"jit(fn)"}, 1)  # scaffolding
