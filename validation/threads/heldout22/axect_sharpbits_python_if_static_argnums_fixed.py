# source: https://github.com/Axect/JAX_tutorial/blob/3745e50043289acd722421ed0d22d7c5fe04194c/02_sharpbits.py
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: marking x static makes the Python if run on a concrete int; one compile.
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
from jax import grad, jit, lax, random, make_jaxpr, vmap
import jax.numpy as jnp
from jax.errors import TracerBoolConversionError, NonConcreteBooleanIndexError

def f(x):
    if x < 3: # only work for numbers not arrays -> JIT compile failed
        return 3. * x ** 2
    else:
        return -4 * x

# But with static argnums, it works
print(jit(f, static_argnums=(0,))(2))
_report({"jit(f)"}, 1)  # scaffolding
