# source: https://github.com/jax-ml/jax/issues/14740
# expect: trace-time-error at line 31
# runtime: ERROR TypeError
# why: an instance of a plain class A is passed to a jitted function; it is not an array nor a registered pytree, so jit raises TypeError (cannot interpret it as an abstract array).

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
class A: pass
try:  # scaffolding
    jax.jit(lambda x: x)(A())
    _report({"jit(<lambda>)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
