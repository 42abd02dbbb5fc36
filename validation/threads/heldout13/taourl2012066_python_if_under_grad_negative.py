# source: https://taourl.com/read-2012066.html
# expect: none
# runtime: COMPILES 0 CALLS 1
# why: The answer says a Python if on x[0] under jax.grad raises ConcretizationTypeError, but grad alone (no jit) sees a concrete primal and returns the gradient.

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


def sum_of_squares(x):
    return jnp.sum(x ** 2)  # scaffolding: '**' lost on the stored page ('x 2'), restored


grad_fn = jax.grad(sum_of_squares)
x = jnp.array([1.0, 2.0, 3.0])
print(grad_fn(x))  # Output: [2. 4. 6.]


def problematic_function(x):
    if x[0] > 0:  # This raises ConcretizationTypeError
        return jnp.sum(x ** 2)  # scaffolding: '**' lost on the stored page ('x 2'), restored
    else:
        return -jnp.sum(x ** 2)  # scaffolding: '**' lost on the stored page ('x 2'), restored


grad_fn = jax.grad(problematic_function)
print(grad_fn(x))  # scaffolding: the page says this raises; grad alone sees a concrete value
_report(set(), 1)  # scaffolding: no jit here; nothing is compiled under a jit name
