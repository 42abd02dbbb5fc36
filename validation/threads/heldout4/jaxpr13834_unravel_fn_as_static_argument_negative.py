# source: https://github.com/jax-ml/jax/pull/13834
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: two unravel functions from ravel_pytree of the same pytree are passed as a static argument; on jax 0.10.2 they compare equal (the PR's change landed via #14954), so run compiles once for both calls.

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


from functools import partial  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax.flatten_util import ravel_pytree  # scaffolding

pytree = {"w": jnp.ones((2, 3)), "b": jnp.zeros(3)}  # scaffolding: the PR's pytree is not shown

_, unravel1 = ravel_pytree(pytree)
_, unravel2 = ravel_pytree(pytree)

@partial(jax.jit, static_argnums=0)
def run(unravel, flat):  # scaffolding: `...` in the PR; one flat vector argument
    return unravel(flat)["w"].sum()  # scaffolding

flat = jnp.arange(9.0)  # scaffolding
run(unravel1, flat)  # scaffolding: `...` in the PR
run(unravel2, flat)  # scaffolding
_report({"jit(run)"}, 2)  # scaffolding
