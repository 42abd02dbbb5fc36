# source: https://github.com/patrick-kidger/equinox/issues/236
# expect: trace-time-error at line 33
# runtime: ERROR TypeError
# why: the maintainer's diagnosis of the reporter's first error: shape is an ordinary jitted argument, so it is traced and jnp.zeros(shape) raises TypeError (shapes must be concrete).

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


@jax.jit
def f(shape):
  return jax.numpy.zeros(shape)


try:  # scaffolding
    f((3,))  # scaffolding: a shape passed as an ordinary (traced) argument
    _report({"jit(f)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
