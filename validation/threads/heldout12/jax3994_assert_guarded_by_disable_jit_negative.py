# source: https://github.com/jax-ml/jax/issues/3994
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The reporter's own pattern without vmap: under disable_jit arr is concrete and the assert runs eagerly; with jit on, the guard is false, the assert is skipped at trace time, and func compiles once.

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
import jax.numpy as jnp  # scaffolding


@jax.jit
def func(arr):
    if jax.config.jax_disable_jit:  # scaffolding: jax.api._jit_is_disabled() is gone; this is the flag it read
        assert arr.min() > 0, "data-dependent check failed"
    # implement the rest of the function
    return arr * 2  # scaffolding


with jax.disable_jit():  # scaffolding
    func(jnp.ones((3, 4)))  # scaffolding
func(jnp.ones((3, 4)))  # scaffolding
_report({"jit(func)"}, 2)  # scaffolding
