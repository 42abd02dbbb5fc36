# source: https://github.com/jax-ml/jax/issues/9187
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: A jitted f that reads the named axis size via lax.psum(1, 'i') is vmapped with axis_size 3 and then 2; the jit cache now keys on the axis environment, so the second call retraces and returns 2 instead of the stale 3 the issue reported.

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
import jax  # scaffolding
from jax import lax  # scaffolding

def f():
    return lax.psum(1, 'i')

print(jax.vmap(f, axis_name='i', axis_size=2, out_axes=None)())

print(jax.vmap(f, axis_name='i', axis_size=3, out_axes=None)())

f = jax.jit(f)

print(jax.vmap(f, axis_name='i', axis_size=3, out_axes=None)())

print(jax.vmap(f, axis_name='i', axis_size=2, out_axes=None)())
_report({"jit(f)"}, 2)  # scaffolding
