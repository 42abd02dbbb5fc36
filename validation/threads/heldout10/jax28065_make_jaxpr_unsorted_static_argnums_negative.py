# source: https://github.com/jax-ml/jax/issues/28065
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: static_argnums given unsorted as (1, 0) no longer swaps the two static values on jax 0.10.2: make_jaxpr and jax.jit both bake in a=1.5, b=2.5 and return -3.75 like the sorted spec, and jit(f) compiles once.

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

def f(a, b, c):
    x = a + c
    y = b * c
    z = x - y
    return z

jaxpr = jax.make_jaxpr(f, static_argnums=(0, 1))(1.5, 2.5, 3.5)
jaxpr
print(jax.core.eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, 3.5))  # scaffolding: print added
jaxpr = jax.make_jaxpr(f, static_argnums=(1, 0))(1.5, 2.5, 3.5)
jaxpr
print(jax.core.eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, 3.5))  # scaffolding: print added
jf = jax.jit(f, static_argnums=(1, 0))  # scaffolding: "Same is observed with jax.jit as well"
out = jf(1.5, 2.5, 3.5)  # scaffolding
print(out, "expected", f(1.5, 2.5, 3.5))  # scaffolding
_report({"jit(f)"}, 1)  # scaffolding
