# source: https://github.com/halfroad/JAX
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: the book's two working alternatives: jax.jit(function, static_argnums=(0,)) makes x a Python float at trace time, and jax.lax.cond keeps the branch inside the program; each jitted function compiles once.
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

def function(x):

    if x > 0:
        return x
    else:
        return 2 * x

def cond_function(input_):

    result = jax.lax.cond(input_ > 0, lambda x: x, lambda x: x + 1, input_)

    return result

jit_static_argnums_function = jax.jit(function, static_argnums = (0,))

result = jit_static_argnums_function(10.)

print("jit_static_argnums_function = ", result)

jit_cond_function = jax.jit(cond_function)

result = jit_cond_function(10.)

print("jit_cond_function = ", result)
_report({"jit(function)", "jit(cond_function)"}, 2)  # scaffolding
