# source: https://github.com/jax-ml/jax/issues/12542
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: Jitted functions call other jitted functions (b calls a, h calls g); the inner jits are inlined into the outer programs, and b(8) runs after make_jaxpr/eval_jaxpr of h without the stale-cache crash the issue reported.

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

@jax.jit
def a(x):
    return ()

@jax.jit
def b(x):
    return a(x)


@jax.jit
def g(x):
    return x, x

@jax.jit
def h(x):
    return g(x)


jaxpr = jax.make_jaxpr(h)(7)
jax.core.eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, 7)

b(8)
print(b(9))  # scaffolding: a second call
_report({"jit(b)"}, 2)  # scaffolding
