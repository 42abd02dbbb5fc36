# source: https://github.com/patrick-kidger/equinox/pull/239
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The FAQ's fix: eqx.filter_jit partitions the model, treats the lambda leaf as static and traces only arrays, so loss_fn compiles once (and again only when the static part changes).

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

eqx.filter_jit(loss_fn)(model, 0, 0) # ok
eqx.filter_jit(loss_fn)(model, 0, 0)  # scaffolding
_report({"jit(loss_fn)"}, 2)  # scaffolding
