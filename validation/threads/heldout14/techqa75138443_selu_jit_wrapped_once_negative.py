# source: https://techqa.club/v/q/why-is-jax-jit-needed-for-jax-numpy-operations-75138443
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the docs' selu is wrapped once with jax.jit at module level and called with a same-shaped array, so it compiles once and later calls dispatch the cached executable.

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


def selu(x, alpha=1.67, lambda_=1.05):
    return lambda_ * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


x = jnp.arange(1000000)
selu(x)

selu_jit = jax.jit(selu)
selu_jit(x)
selu_jit(x + 1)  # scaffolding: two more calls with the same shape
selu_jit(x * 2)  # scaffolding
_report({"jit(selu)"}, 3)  # scaffolding
