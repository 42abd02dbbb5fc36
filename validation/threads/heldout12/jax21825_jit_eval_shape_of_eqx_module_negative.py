# source: https://github.com/jax-ml/jax/issues/21825
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The MWE (jit over eval_shape of a callable equinox Module holding a traced array) crashed with TracerBoolConversionError on jax 0.4.29; on 0.10.2 it traces and runs, compiling f once.

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
import equinox as eqx
import jax

class F(eqx.Module):
    x: jax.Array

    def __call__(self):
        return 1.

@jax.jit
def f(x):
    jax.eval_shape(F(x))

x = jax.numpy.arange(3)
f(x)
f(x + 1)  # scaffolding
_report({"jit(f)"}, 2)  # scaffolding
