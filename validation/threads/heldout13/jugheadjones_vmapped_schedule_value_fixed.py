# source: https://jugheadjones10.github.io/kim-young-jin/ml/leaked_batch_tracer.html
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: train_fn_b returns the scheduled value itself, so nothing traced escapes the vmap and one compile serves three calls under checking_leaks.

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


def train_fn_b(lr: jax.Array):
    return lr * 10.0


# An array of values to map over
input_values = jnp.array([1.0, 5.0, 10.0])

vmapped_b = jax.jit(jax.vmap(train_fn_b))  # scaffolding: jitted so compiles can be counted

with jax.checking_leaks():
    for _ in range(3):  # scaffolding
        out = vmapped_b(input_values)
print(out)  # scaffolding
_report({"jit(train_fn_b)"}, 3)  # scaffolding
