# source: https://github.com/jax-ml/jax/issues/6302
# expect: bad-static-spec at line 35
# runtime: ERROR IndexError
# why: in_axes leaves out the slot of the static broadcasted argument, so it no longer lines up with the positional arguments.
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

from functools import partial  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax import pmap  # scaffolding


@partial(pmap, static_broadcasted_argnums=(2,), in_axes=(0, None, 0))
def my_function(A, B, C, D):
    return A * B + C + D  # scaffolding: the thread's body is elided


try:  # scaffolding
    my_function(jnp.ones((1, 3)), jnp.ones(3), 2, jnp.ones((1, 3)))  # scaffolding: one CPU device
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
