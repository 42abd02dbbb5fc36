# source: https://github.com/google/flax/pull/1903
# expect: trace-time-error at line 36
# runtime: ERROR TracerBoolConversionError
# why: the old LR-schedule HOWTO's learning_rate_fn branches with a Python `if cycle_step < top`; optax calls the schedule with the traced step count inside the jitted train step, so the comparison is a tracer and `if` raises (the PR replaced it with a cosine schedule because it 'did not play well with jit').
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


import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import optax  # scaffolding


def create_triangular_schedule(lr_min, lr_max, steps_per_cycle):
  top = (steps_per_cycle + 1) // 2
  def learning_rate_fn(step):
    cycle_step = step % steps_per_cycle
    if cycle_step < top:
      lr = lr_min + cycle_step/top * (lr_max - lr_min)
    else:
      lr = lr_max - ((cycle_step - top)/top) * (lr_max - lr_min)
    return lr
  return learning_rate_fn


learning_rate_fn = create_triangular_schedule(3e-3, 3e-2, 2 * 100)  # scaffolding: 100 steps per epoch
tx = optax.sgd(learning_rate_fn)  # scaffolding
params = {"w": jnp.ones((3,))}  # scaffolding
opt_state = tx.init(params)  # scaffolding


@jax.jit  # scaffolding
def train_step(params, opt_state, x):  # scaffolding
    grads = jax.grad(lambda p: jnp.sum((p["w"] * x) ** 2))(params)  # scaffolding
    updates, opt_state = tx.update(grads, opt_state, params)  # scaffolding
    return optax.apply_updates(params, updates), opt_state  # scaffolding


try:  # scaffolding
    params, opt_state = train_step(params, opt_state, jnp.ones((3,)))  # scaffolding
    _report({"jit(train_step)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
