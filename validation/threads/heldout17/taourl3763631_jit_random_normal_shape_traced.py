# source: https://taourl.com/read-3763631.html
# expect: trace-time-error at line 33
# runtime: ERROR TypeError
# why: jax.jit(jax.random.normal) traces every argument, so the shape tuple (1000,) reaches random.normal as a tuple of tracers and raises TypeError (shapes must be concrete); the answer's 'basic example' does not run on 0.10.2.
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

import jax.numpy as jnp

key = jax.random.PRNGKey(42)

jit_rand = jax.jit(jax.random.normal)

try:  # scaffolding
    random_values = jit_rand(key, (1000,))
    _report({"jit(normal)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
