# source: https://openillumi.com/?p=109328
# expect: trace-time-error at line 34
# runtime: ERROR TracerArrayConversionError
# why: f uses NumPy's np.power/np.mean on params that grad turns into tracers; NumPy tries to convert the tracer with __array__ and the gradient call raises TracerArrayConversionError (a trace-time failure under grad rather than jit).

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
import numpy as np
x = np.linspace(0,1,100)
y = 2 * x + 3 + np.random.randn(100)

def f(params, x, y):
    return np.mean(np.power((params['w'] * x + params['b'])-y , 2))

params = {'w': 2.4, 'b': 10.}

from jax import grad
df = grad(f)
try:  # scaffolding
    df(params, x, y)
    _report(set(), 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
