# source: https://github.com/jax-ml/jax/issues/1120
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: closing over the option (jit(lambda x: python_control_flow(x, True))) keeps it a Python bool, and on jax 0.10.2 an in_axes=None argument to vmap also stays concrete, so both run; the closure-jit compiles once.

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


import jax.numpy as np  # scaffolding
from jax import jit, vmap  # scaffolding

def python_control_flow(x, option=False):
  return x**2 if option else x**3

print(vmap(jit(lambda x: python_control_flow(x, True)))(np.arange(3)))  # works
print(vmap(python_control_flow, in_axes=(0, None))(np.arange(3), True))  # doesn't work
_report({"jit(<lambda>)"}, 1)  # scaffolding
