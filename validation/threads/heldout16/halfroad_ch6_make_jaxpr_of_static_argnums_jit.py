# source: https://github.com/halfroad/JAX
# expect: unhashable-static at line 54
# runtime: ERROR ValueError
# why: make_jaxpr traces every argument it is given, so the x marked static in jit_static_argnums_function arrives as a tracer and jit rejects it as a non-hashable static argument (the book marks the line '# Error' and leaves it commented out).
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

# jaxpr

jaxpr_jit_static_argnums_function = jax.make_jaxpr(jit_static_argnums_function)

# Error
try:  # scaffolding
    print(jaxpr_jit_static_argnums_function(10.))  # scaffolding: uncommented
    _report({"jit(function)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
