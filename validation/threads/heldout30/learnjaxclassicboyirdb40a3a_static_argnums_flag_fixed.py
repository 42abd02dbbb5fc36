# source: https://github.com/classicboyir/learn-jax/blob/db40a3a94369ceb5720c96066be7923e4283684a/basics_02.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: the notebook's own fix: @partial(jit, static_argnums=(1,)) makes neg static, so the Python branch works; one compile per flag value (True, False), reused by the repeated calls.
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

# cell 1
import jax
import jax.numpy as jnp
from jax import jit
from jax import make_jaxpr
# cell 2 (the same f without static_argnums, which raises) is the positive file  # scaffolding
# cell 3
from functools import partial

@partial(jit, static_argnums=(1,))
def f(x, neg):
  print('x: ', x)
  print('neg: ', neg)
  return -x if neg else x

f(1, True)
# cell 4
f(1, False)
f(2, True)  # scaffolding: the same two static values again, served from the cache
f(3, False)  # scaffolding
_report({"jit(f)"}, 4)  # scaffolding
