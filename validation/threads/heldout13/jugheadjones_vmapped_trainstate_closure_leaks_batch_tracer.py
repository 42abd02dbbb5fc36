# source: https://jugheadjones10.github.io/kim-young-jin/ml/leaked_batch_tracer.html
# expect: trace-time-error at line 49
# runtime: ERROR Exception
# why: train_fn returns a pytree whose aux data holds a closure over the vmapped lr, so the BatchTracer escapes vmap and jax.checking_leaks raises 'Leaked trace BatchTrace'.

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


import jax
import jax.numpy as jnp
from jax import tree_util


class TrainState:
    def __init__(self, fn):
        self.fn = fn


tree_util.register_pytree_node(
    TrainState,
    lambda container: ((), container),
    lambda aux_data, children: aux_data,
)


def train_fn(lr: jax.Array):
    def learning_schedule():
        return lr * 10.0

    return TrainState(fn=learning_schedule)


def train_fn_b(lr: jax.Array):
    return lr * 10.0


# An array of values to map over
input_values = jnp.array([1.0, 5.0, 10.0])

# vmap the creator function
vmapped_creator = jax.vmap(train_fn)

try:  # scaffolding
    with jax.checking_leaks():
        # 4. Now the `TypeError` is bypassed, and JAX's leak detection
        # finds the tracer inside the container, raising the intended error.
        vmapped_creator(input_values)
    print("no error")  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
