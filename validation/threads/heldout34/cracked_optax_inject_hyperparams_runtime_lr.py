# source: https://crackedaicode.com/problems/optax-injecting-hyperparams
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: Looks like a per-call recompile (a new optimizer and a new learning rate on every jitted step), but inject_hyperparams makes the rate a traced input, so four rates compile once.

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
# The page's recipe: "optax.inject_hyperparams solves this by treating specified
# hyperparameters as runtime values that can change each step without retracing."
import jax
import jax.numpy as jnp
import optax


def adam_step_runtime_lr(params, grads, lr):  # scaffolding: the problem's function around the recipe
    optimizer = optax.inject_hyperparams(optax.adam)(learning_rate=lr)
    opt_state = optimizer.init(params)
    updates, _ = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates)


step = jax.jit(adam_step_runtime_lr)  # scaffolding: "pass different lr values across steps inside a jitted function"
params = jnp.ones(5)  # scaffolding
grads = jnp.linspace(-1.0, 1.0, 5)  # scaffolding
for lr in [1e-3, 3e-3, 1e-2, 3e-2]:  # scaffolding
    params = step(params, grads, lr)
_report({"jit(adam_step_runtime_lr)"}, 4)  # scaffolding
