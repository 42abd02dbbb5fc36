# source: https://taourl.com/read-2012066.html
# expect: none
# runtime: COMPILES 0 CALLS 1
# why: The answer's lax.cond version of the same function differentiates as well.

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
from jax import lax


def fixed_function(x):
    return lax.cond(x[0] > 0,
                    lambda _: jnp.sum(x ** 2),  # scaffolding: '**' lost on the stored page ('x 2'), restored
                    lambda _: -jnp.sum(x ** 2),  # scaffolding: '**' lost on the stored page ('x 2'), restored
                    operand=None)


grad_fn = jax.grad(fixed_function)
x = jnp.array([1.0, 2.0, 3.0])  # scaffolding
print(grad_fn(x))
_report(set(), 1)  # scaffolding: no jit here; nothing is compiled under a jit name
