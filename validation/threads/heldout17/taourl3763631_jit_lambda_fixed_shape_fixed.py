# source: https://taourl.com/read-3763631.html
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the shape (1000,) is a constant inside the jitted lambda and only the key is traced, so it compiles once and runs.
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

key = jax.random.PRNGKey(42)  # scaffolding (from the answer's first snippet)

key, subkey = jax.random.split(key)

jit_rand = jax.jit(lambda k: jax.random.normal(k, (1000,)))

random_values = jit_rand(subkey)
_report({"jit(<lambda>)"}, 1)  # scaffolding
