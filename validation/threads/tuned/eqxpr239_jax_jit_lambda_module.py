# source: https://github.com/patrick-kidger/equinox/pull/239
# expect: trace-time-error at line 38
# runtime: ERROR TypeError
# why: eqx.nn.Lambda keeps a Python function as a pytree leaf, so jax.jit(loss_fn) receives the lambda as a dynamic argument and raises TypeError (not a valid JAX type) while abstracting its arguments; eqx.filter_jit treats it as static.

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
import equinox as eqx

def loss_fn(model, x, y):
    return (model(x) - y) ** 2

model = eqx.nn.Lambda(lambda x: x)

try:
    jax.jit(loss_fn)(model, 0, 0) # error
    _report({"jit(loss_fn)"}, 1)  # scaffolding
except TypeError as e:
    print(f"ERROR {type(e).__name__}")  # scaffolding: was print(e)
