# source: https://github.com/jax-ml/jax/issues/23302
# expect: shape-churn at line 40
# runtime: COMPILES 2 CALLS 2
# why: the same jitted f is called first with jax.numpy.array(1) (weak_type=True) and then with an int32 array of the same shape that is not weak, so the second call misses the cache and compiles again: 2 compiles for 2 calls.
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

x = jax.numpy.array(1)  # weak type
print(x.weak_type)


@jax.jit
def f(x):  # scaffolding
    return x * 2


f(x)
f(jax.numpy.array(1, dtype=jax.numpy.int32))
_report({"jit(f)"}, 2)
