# source: https://github.com/jax-ml/jax/issues/196
# expect: none
# runtime: COMPILES 0 CALLS 1
# why: grad does not abstract its argument to a shape, so the Python conditional in 'lambda x: x if x > 0 else -x' is decided on the concrete value: it runs (no jit, nothing compiled for it).
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
from jax import grad

print(grad(lambda x: x if x > 0 else -x)(3.0))  # scaffolding: the call
_report({"jit(<lambda>)"}, 1)
