# source: https://openillumi.com/?p=112064
# expect: unhashable-static at line 52
# runtime: ERROR TypeError
# why: lax.scan hashes the function it is given; the Equinox module holds jax.Array fields, so hashing it raises TypeError: unhashable type ArrayImpl.

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


class EqxModel(eqx.Module):
    A: jax.Array
    B: jax.Array
    C: jax.Array
    D: jax.Array

    def __call__(self, states, inputs):
        x = states.reshape(-1, 1)
        u = inputs.reshape(-1, 1)
        x_next = self.A @ x + self.B @ u
        y = self.C @ x + self.D @ u  # scaffolding: the rest of the body is cut off in the stored page
        return x_next.reshape(-1), y.reshape(-1)  # scaffolding


model = EqxModel(A=jnp.eye(2) * 0.9, B=jnp.ones((2, 1)), C=jnp.ones((1, 2)), D=jnp.zeros((1, 1)))  # scaffolding
x0 = jnp.zeros(2)  # scaffolding
inputs = jnp.ones((5, 1))  # scaffolding
try:  # scaffolding
    xk, outputs = jax.lax.scan(model, x0, inputs)
    print("no error")  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
