# source: https://github.com/jax-ml/jax/issues/38548
# expect: jit-in-loop-or-body at line 46
# runtime: COMPILES 3 CALLS 6
# why: Each trial defines a new loss_fn closure and wraps it in a new jax.jit(jax.value_and_grad(...)) inside the loop, so every trial compiles a fresh program even though only the captured learning rate changes.

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


def compute_loss(params):  # scaffolding: stand-in
    return jnp.sum(params ** 2)  # scaffolding


params = jnp.ones(4)  # scaffolding
calls = 0  # scaffolding

for trial in range(3):  # scaffolding: range(50) in the thread
    lr = 0.001 * (1 + trial * 0.1)  # varies per trial

    def loss_fn(params, _lr=lr):          # new closure each trial
        return compute_loss(params) * _lr

    grad_fn = jax.jit(jax.value_and_grad(loss_fn))  # new compilation each trial

    _lr = lr  # scaffolding: the snippet uses _lr here
    for step in range(2):  # scaffolding: range(2000) in the thread
        loss, g = grad_fn(params)
        params = params - _lr * g
        calls += 1  # scaffolding
_report({"jit(loss_fn)"}, calls)  # scaffolding
