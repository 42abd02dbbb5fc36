# source: https://github.com/jax-ml/jax/issues/13769
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The same split with the plain Python list passed directly, the alternative the comment describes (it only upsets mypy).
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


@jax.jit  # scaffolding: the comment's jitted function, reconstructed from its prose
def f(x):
    sizes = [1, 2]  # scaffolding: "a list of plain Python ints"
    return jnp.split(x, sizes)  # "If I pass the list directly" (only a mypy complaint, it runs)


f(jnp.zeros(6))  # scaffolding
f(jnp.ones(6))  # scaffolding
_report({"jit(f)"}, 2)  # scaffolding
