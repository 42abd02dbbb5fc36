# source: https://github.com/google-deepmind/optax/issues/577
# expect: jit-in-loop-or-body at line 41
# runtime: COMPILES 3 CALLS 3
# why: Each learning rate of the sweep builds a new optax.adafactor whose rate is baked into tx.update as a constant, and jax.jit(tx.update) is made per call, so every rate compiles again.

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
from numpy import ndarray


def main(lr: ndarray[bfloat16]):
    tx = optax.adafactor(learning_rate=lr, weight_decay_rate=lr, momentum=lr, dtype_momentum=bfloat16)
    model = jnp.ones(8, bfloat16)
    opt_state = tx.init(model)
    # the reporter prints jax.jit(tx.update).lower(...).as_text(); calling it compiles (scaffolding)
    return jax.jit(tx.update)(model, opt_state, model)


calls = 0
for lr in (1e-3, 3e-3, 1e-2):  # scaffolding: a small hyperparameter sweep
    main(jnp.asarray(lr, bfloat16))
    calls += 1
_report({"jit(update_fn)"}, calls)
