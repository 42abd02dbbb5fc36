# source: https://github.com/reservoirpy/reservoirpy/issues/235
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: with a and b passed to the jitted step as traced arguments (the issue's suggested direction, JAX docs' strategy of not baking mutable state into a static self), the step sees the updated parameters; it compiles once for 3 calls and the output changes after the fit.

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


@jax.jit
def _step(W, a, b, state, x):
    return jnp.tanh(a * (W @ state + x) + b)


class IPReservoir:
    def __init__(self, units, key):
        self.W = 0.1 * jax.random.normal(key, (units, units))
        self.a = jnp.ones(units)
        self.b = jnp.zeros(units)

    def run(self, x):
        return _step(self.W, self.a, self.b, jnp.zeros_like(x), x)

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
