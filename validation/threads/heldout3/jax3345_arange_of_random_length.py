# source: https://github.com/jax-ml/jax/issues/3345
# expect: trace-time-error at line 36
# runtime: ERROR ConcretizationTypeError
# why: K is a random draw passed to jit(dynamic_array), so jnp.arange(K) asks for an array whose length is a traced value and raises.

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


import jax.numpy as jnp
from jax import random
from jax import jit

rng = random.PRNGKey(0)
K = random.randint(rng, (1,), 1, 100)

def dynamic_array(K):
   return jnp.arange(K)

# Raises an error
try:  # scaffolding
    jit(dynamic_array)(K)
    _report({"jit(dynamic_array)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
