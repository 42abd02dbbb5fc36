# source: https://github.com/aesara-devs/aesara/issues/684
# expect: trace-time-error at line 32
# runtime: ERROR TypeError
# why: the shape is a jax array (what Aesara's transpiler produced: 'currently jnp.array([10])') closed over by the jitted function; jax.random.normal needs a concrete tuple of ints and raises TypeError under jit even though the array is a constant.
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
import jax.numpy as jnp  # scaffolding
import numpy as np

shape = jnp.array([10])  # currently jnp.array([10])

def jax_funcified(prng_key):
    return jax.random.normal(prng_key, shape)

key = jax.random.PRNGKey(0)
try:  # scaffolding
    print(jax.jit(jax_funcified)(key))
    _report({"jit(jax_funcified)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
