# source: https://github.com/google-deepmind/optax/issues/577
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: With optax.inject_hyperparams the rates live in the optimizer state, the update is jitted once, and the sweep over three rates compiles once.

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
import optax
from jax.numpy import bfloat16

# the workaround named in the thread: inject_hyperparams keeps the learning rate in the state
tx = optax.inject_hyperparams(optax.adafactor, static_args=("dtype_momentum",))(
    learning_rate=1e-3, weight_decay_rate=1e-3, momentum=1e-3, dtype_momentum=bfloat16)
update = jax.jit(tx.update)


def main(lr):
    model = jnp.ones(8, bfloat16)
    opt_state = tx.init(model)
    for name in ("learning_rate", "weight_decay_rate", "momentum"):
        opt_state.hyperparams[name] = jnp.asarray(lr, opt_state.hyperparams[name].dtype)
    return update(model, opt_state, model)


calls = 0
for lr in (1e-3, 3e-3, 1e-2):  # scaffolding: a small hyperparameter sweep
    main(lr)
    calls += 1
_report({"jit(update_fn)"}, calls)
