# source: https://github.com/jax-ml/jax/issues/9578
# expect: trace-time-error at line 36
# runtime: ERROR ConcretizationTypeError
# why: the one-argument jnp.where has a data-dependent output size, so under jit it raises ConcretizationTypeError (jakevdp: 'it implicitly creates a dynamically-shaped array').

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
    arr = jnp.where(operand==occurence, operand, jnp.nan)
    return jnp.where(arr==arr)[n]


try:  # scaffolding
    print(idx_n_th_occurence(jnp.array([1., 2., 1., 3.]), 1.))  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
