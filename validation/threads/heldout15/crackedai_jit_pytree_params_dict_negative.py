# source: https://crackedaicode.com/problems/jax-jit-with-pytree-input
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: forward takes a dict of arrays as a pytree argument; jit flattens it and compiles once.
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

# params is a nested dict — a pytree.
params = {
    "w1": jnp.ones((4, 4)),
    "b1": jnp.zeros((4,)),
}


@jax.jit
def forward(params, x):
    return params["w1"] @ x + params["b1"]


x = jnp.ones((4,))
y = forward(params, x)   # jit traces over the nested dict — no problem.
_report({"jit(forward)"}, 1)  # scaffolding
