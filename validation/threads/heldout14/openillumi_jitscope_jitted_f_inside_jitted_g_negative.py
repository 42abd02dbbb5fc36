# source: https://openillumi.com/en/en-jax-jit-optimization-strategy
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: g, which calls the jitted f several times, is itself jitted; the inner jit calls are inlined into g's trace, so only g compiles, once, and repeated calls reuse it.

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
from jax import jit


@jit
def f(x):
    return jnp.sin(x) * jnp.cos(x) + x ** 2  # scaffolding: the page's f is unspecified


@jit
def g(x):
    for _ in range(5):
        x = f(x)
    return x


x = jnp.linspace(0.0, 1.0, 16)  # scaffolding
for _ in range(3):  # scaffolding
    x = g(x)
_report({"jit(f)", "jit(g)"}, 3)  # scaffolding
