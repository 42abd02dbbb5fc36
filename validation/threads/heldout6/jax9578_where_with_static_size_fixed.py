# source: https://github.com/jax-ml/jax/issues/9578
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: jakevdp's fix for a static n: jnp.where(..., size=n + 1) has a static output size; n keeps its Python default, so the function compiles once for 2 calls.

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
import jax.numpy as jnp  # scaffolding


@jax.jit 
def idx_n_th_occurence(operand, occurence, n=0):
    return jnp.where(operand==occurence, size=n + 1)[n]


print(idx_n_th_occurence(jnp.array([1., 2., 1., 3.]), 1.))  # scaffolding
print(idx_n_th_occurence(jnp.array([3., 2., 1., 3.]), 3.))  # scaffolding
_report({"jit(idx_n_th_occurence)"}, 2)  # scaffolding
