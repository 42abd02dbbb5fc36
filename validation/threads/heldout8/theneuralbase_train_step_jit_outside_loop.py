# source: https://theneuralbase.com/jax/learn/intermediate/jit-compiled-train-step/
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: train_step is wrapped with jax.jit once, outside the loop, and called three times with the same shapes and dtypes, so it compiles once for 3 calls; lr is a module-level constant that never changes.

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
from jax import grad
key = jax.random.PRNGKey(0)
X = jax.random.normal(key, (100, 10))
y = jax.random.normal(key, (100, 1))
def loss_fn(params, X, y):
    pred = jnp.dot(X, params)
    return jnp.mean((pred - y) ** 2)
def grad_fn(params, X, y):
    return grad(loss_fn)(params, X, y)
params = jax.random.normal(key, (10, 1))
lr = 0.01
def train_step(params, X, y):
    g = grad_fn(params, X, y)
    return params - lr * g
compiled_train_step = jax.jit(train_step)
for step in range(3):
    params = compiled_train_step(params, X, y)
    loss = loss_fn(params, X, y)  # scaffolding (line cut off in the stored page)
_report({"jit(train_step)"}, 3)  # scaffolding
