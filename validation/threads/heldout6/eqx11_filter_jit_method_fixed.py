# source: https://github.com/patrick-kidger/equinox/issues/11
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: with eqx.filter_jit on the method, self is split into traced arrays (W) and static non-arrays (tau), so nothing unhashable is hashed and energy compiles once for 2 calls.

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
import equinox as eqx
import jax
import jax.numpy as jnp


class DenseSynapse(eqx.Module):
    W: jax.Array
    tau: float = 1.0

    @eqx.filter_jit
    def energy(self, x):
        return -0.5 * x @ self.W @ x / self.tau


syn = DenseSynapse(jax.random.normal(jax.random.PRNGKey(0), (32, 32)))
syn.energy(jnp.ones(32))
syn.energy(jnp.ones(32))
_report({"jit(energy)"}, 2)
