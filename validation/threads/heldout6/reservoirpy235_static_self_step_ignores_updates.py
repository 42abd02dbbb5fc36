# source: https://github.com/reservoirpy/reservoirpy/issues/235
# expect: stale-closure at line 41
# runtime: COMPILES 1 CALLS 3
# why: _step is jitted with static self, so self.a and self.b are baked into the compiled step as constants; partial_fit's later updates of a and b are ignored by the cached step (same output before and after the update, one compile).

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
from functools import partial

import jax
import jax.numpy as jnp


class IPReservoir:
    def __init__(self, units, key):
        self.W = 0.1 * jax.random.normal(key, (units, units))
        self.a = jnp.ones(units)
        self.b = jnp.zeros(units)

    @partial(jax.jit, static_argnums=(0,))
    def _step(self, state, x):
        return jnp.tanh(self.a * (self.W @ state + x) + self.b)

    def run(self, x):
        return self._step(jnp.zeros_like(x), x)

    def partial_fit(self, x, lr=0.5):
        y = self.run(x)
        self.a = self.a + lr * (1.0 - y**2)
        self.b = self.b - lr * y


node = IPReservoir(5, jax.random.PRNGKey(0))
x = jnp.linspace(-1.0, 1.0, 5)
before = node.run(x)
node.partial_fit(x)
after = node.run(x)
print("output changed after fit:", bool(jnp.any(before != after)))
_report({"jit(_step)"}, 3)
