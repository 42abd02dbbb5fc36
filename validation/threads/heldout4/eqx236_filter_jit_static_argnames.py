# source: https://github.com/patrick-kidger/equinox/issues/236
# expect: bad-static-spec at line 36
# runtime: ERROR ValueError
# why: eqx.filter_jit does not take jax.jit's static_argnames (it decides static-ness by filtering), so partial(equinox.filter_jit, static_argnames=[...]) raises ValueError when the function is wrapped, as the reporter saw.

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


import functools
import typing

import jax  # scaffolding
import jax.numpy as jnp
import equinox

try:  # scaffolding
    @functools.partial(equinox.filter_jit, static_argnames=['myfunction'])
    def jit_function(mymodule: equinox.Module, myarray: jnp.ndarray, myfunction: typing.Callable) -> jnp.ndarray:
        return myfunction(mymodule(myarray))  # scaffolding: the body is not in the thread

    mymodule = equinox.nn.Linear(3, 3, key=jax.random.PRNGKey(0))  # scaffolding
    jit_function(mymodule, jnp.ones(3), jnp.tanh)  # scaffolding
    _report({"jit(jit_function)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
