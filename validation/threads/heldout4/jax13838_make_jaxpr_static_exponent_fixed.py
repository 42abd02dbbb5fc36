# source: https://github.com/jax-ml/jax/issues/13838
# expect: none
# runtime: COMPILES 0 CALLS 1
# why: soraros's fix marks the exponent static (make_jaxpr(..., static_argnums=(1,))), so integer_pow gets y=4 and tracing succeeds; make_jaxpr does not compile.

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
from jax import lax  # scaffolding: soraros's line uses lax

x: float = jax.numpy.arange(100, dtype=float)
y: int = 4

print(jax.make_jaxpr(lax.integer_pow, static_argnums=(1,))(x, y))
_report({"jit(integer_pow)"}, 1)  # scaffolding: make_jaxpr traces, it does not compile
