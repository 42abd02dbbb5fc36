# source: https://github.com/google-deepmind/dm-haiku/issues/99
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: A jax.jit-wrapped function calling a custom_jvp, used inside hk.transform_with_state with jax_check_tracer_leaks on, compiles once for two inits and no tracer leak is reported on jax 0.10.2.

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


import haiku as hk
import jax

jax.config.update("jax_check_tracer_leaks", True)  # scaffolding: the reporter's `export JAX_CHECK_TRACER_LEAKS=1`


@jax.custom_jvp
def t(y):
    return y

def t_jvp(primals, tangents):
    assert False

t.defjvp(t_jvp)

@jax.jit
def s(y):
    return t(y)

def f():
    return s(0.0)

transformed = hk.transform_with_state(f)
try:  # scaffolding
    transformed.init(None)
    transformed.init(None)  # scaffolding: a second init hits the cache of s
    _report({"jit(s)"}, 2)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
