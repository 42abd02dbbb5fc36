# source: https://crackedaicode.com/problems/jax-jit-donate-argnums
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the jitted lambda donates params and the result is rebound to params, so the donated buffer is never read again; one compile for the call.
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


import jax
import jax.numpy as jnp

params = jnp.ones((4,))
grads  = jnp.full((4,), 0.01)

update = jax.jit(lambda p, g: p - g, donate_argnums=(0,))

params = update(params, grads)
# params now holds [0.99, 0.99, 0.99, 0.99]
# the old params buffer has been donated — do NOT read it again.
print(params)  # scaffolding
_report({"jit(<lambda>)"}, 1)  # scaffolding
