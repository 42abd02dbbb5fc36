# source: https://github.com/neuronlab-cell/cbgtc_project/blob/0e565a269242983d830a22683fd25ccd7dbcf124/jax_models/test_results.md
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The report's fix captures n_steps in the closure of a factory that builds the jitted function once, so the length is static and repeated calls reuse one compile.

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

# ✅ Good - static value in closure
def create_fn(n_steps):
    @jax.jit
    def simulate():
        return jnp.arange(n_steps)  # n_steps is static
    return simulate

simulate = create_fn(4000)  # scaffolding
for _ in range(4):  # scaffolding
    simulate()  # scaffolding
_report({"jit(simulate)"}, 4)  # scaffolding
