# source: https://github.com/jax-ml/jax/issues/5073
# expect: trace-time-error at line 31
# runtime: ERROR ConcretizationTypeError
# why: jit(multigammaln) traces the dimension argument d, which multigammaln needs as a concrete int (it builds jnp.arange(d)), so the jitted call raises ConcretizationTypeError.

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


from jax.scipy.special import multigammaln
from jax import jit
try:  # scaffolding
    jit(multigammaln)(1, 2)
    _report({"jit(multigammaln)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
