# source: https://github.com/patrick-kidger/equinox/issues/236
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: plain @equinox.filter_jit treats the function argument (not an array) as static by itself, so jit_function compiles once for two calls.

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


import typing

import jax  # scaffolding
import jax.numpy as jnp
import equinox


@equinox.filter_jit
def jit_function(mymodule: equinox.Module, myarray: jnp.ndarray, myfunction: typing.Callable) -> jnp.ndarray:
    return myfunction(mymodule(myarray))  # scaffolding: the body is not in the thread


mymodule = equinox.nn.Linear(3, 3, key=jax.random.PRNGKey(0))  # scaffolding
jit_function(mymodule, jnp.ones(3), jnp.tanh)  # scaffolding
jit_function(mymodule, jnp.zeros(3), jnp.tanh)  # scaffolding
_report({"jit(jit_function)"}, 2)  # scaffolding
