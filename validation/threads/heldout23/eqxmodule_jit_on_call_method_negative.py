# source: https://docs.kidger.site/equinox/api/module/module/
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: jax.jit on an equinox.Module's __call__ traces self as a PyTree, so calls on two instances with the same structure reuse one compilation, as the docstring says.
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

import equinox  # scaffolding
import jax
import jax.numpy as jnp  # scaffolding

class MyModule(equinox.Module):
    weight: jax.Array  # scaffolding: the '...' of the docstring

    @jax.jit
    def __call__(self, x):
        return self.weight @ x  # scaffolding: the '...' of the docstring

m1 = MyModule(jnp.ones((2, 3)))  # scaffolding
m2 = MyModule(2 * jnp.ones((2, 3)))  # scaffolding: another instance, same structure
x = jnp.ones(3)  # scaffolding
m1(x); m1(x); m2(x)  # scaffolding
_report({"jit(__call__)"}, 3)  # scaffolding
