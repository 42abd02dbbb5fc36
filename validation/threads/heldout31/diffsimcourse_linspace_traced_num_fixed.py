# source: https://github.com/aidancrilly/MiniCourse-DifferentiableSimulation/blob/713f839e358ca490d5a50bccbf3cd3b65ab8f00a/Extended00_JAXIntro.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: The notebook's next cell jits variable_length_result with static_argnames=['n'], so num is a Python int and the function compiles once.

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
# cell 2
import jax
import jax.numpy as jnp
# cell 13
def variable_length_result(x,n):
  res = jnp.linspace(0.0,x,n)
  return res

x = 0.25
n = 5

nojit_res = variable_length_result(x,n)
print(nojit_res)
# cell 15
# static_argnames tells JAX to recompile on changes at these argument positions:
jitted_res = jax.jit(variable_length_result, static_argnames=['n'])(x,n)
print(jitted_res)
_report({"jit(variable_length_result)"}, 1)  # scaffolding
