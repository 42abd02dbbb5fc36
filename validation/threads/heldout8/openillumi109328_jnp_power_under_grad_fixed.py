# source: https://openillumi.com/?p=109328
# expect: none
# runtime: COMPILES 0 CALLS 1
# why: With jax.numpy's jnp.power/jnp.mean the function is traceable, so grad returns the gradient; nothing is jitted here, so no jitted compiles are counted (0 for 1 call).

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

import jax.numpy as jnp
def f(params, x, y):
    return jnp.mean(jnp.power((params['w'] * x + params['b'])-y , 2))

params = {'w': 2.4, 'b': 10.}

from jax import grad
df = grad(f)
print(df(params, x, y))
_report(set(), 1)  # scaffolding
