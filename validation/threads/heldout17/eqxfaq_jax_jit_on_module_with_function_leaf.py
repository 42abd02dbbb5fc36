# source: https://docs.kidger.site/equinox/faq/
# expect: trace-time-error at line 40
# runtime: ERROR TypeError
# why: the eqx.nn.MLP passed to jax.jit(loss_fn) is a pytree whose activation leaf is a function, which jit cannot treat as an array, so the call raises TypeError (the FAQ's 'not a valid JAX type').
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
import equinox as eqx

def loss_fn(model, x, y):
    return ((model(x) - y) ** 2).mean()

model = eqx.nn.Lambda(lambda x: x)
model = eqx.nn.MLP(2, 2, 2, 2, key=jax.random.PRNGKey(0))

x = jax.numpy.arange(2)
y = x * x

try:
    jax.jit(loss_fn)(model, x, y) # error
    _report({"jit(loss_fn)"}, 1)  # scaffolding
except TypeError as e:
    print(e)
    print(f"ERROR {type(e).__name__}")  # scaffolding
