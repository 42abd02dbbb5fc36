# source: https://jax.readthedocs.io/en/latest/faq.html
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: jit(f) for f(x) = log(sqrt(x)) compiles once; XLA may rewrite it as 0.5 * log(x), which changes the last digit, but that is a numerics note, not a tracing or caching problem.
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
from jax import jit
import jax.numpy as jnp
def f(x):
  return jnp.log(jnp.sqrt(x))
x = jnp.pi
print(f(x))
print(jit(f)(x))
_report({"jit(f)"}, 1)  # scaffolding
