# source: https://docs.jax.dev/en/latest/_autosummary/jax.numpy.copy.html
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the docstring's jitted lambda donates its argument; reading the donated x raises the documented 'Array has been deleted' error, and passing x.copy() keeps x alive, with one compilation for both calls.
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

import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

f = jax.jit(lambda x: 2 * x, donate_argnums=0)
x = jnp.arange(4)
y = f(x)
print(y)

try:  # scaffolding
    print(x)
except RuntimeError as err:  # scaffolding: the documented 'Array has been deleted' error
    print("as documented:", str(err)[:40])  # scaffolding

x = jnp.arange(4)
y = f(x.copy())
print(y)
print(x)
_report({"jit(<lambda>)"}, 2)  # scaffolding
