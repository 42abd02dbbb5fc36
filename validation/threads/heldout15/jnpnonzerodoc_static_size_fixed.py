# source: https://jax.readthedocs.io/en/latest/_autosummary/jax.numpy.nonzero.html
# expect: none
# runtime: COMPILES 3 CALLS 3
# why: the docs' fix jits jnp.nonzero with static_argnames='size'; each of the three sizes the docs try is a different output shape and compiles once.
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

x = jnp.array([0, 5, 0, 6, 0, 7])
nonzero_jit = jax.jit(jnp.nonzero, static_argnames='size')
nonzero_jit(x, size=3)
nonzero_jit(x, size=2)  # size < 3: indices are truncated
nonzero_jit(x, size=5)  # size > 3: indices are padded with zeros.
_report({"jit(nonzero)"}, 3)  # scaffolding
