# source: https://openillumi.com/en/en-jax-jit-recompile-dynamic-shape-fix
# expect: shape-churn at line 43
# runtime: COMPILES 2 CALLS 3
# why: the third call passes an array whose leading (-1) axis is longer, and since the shape is part of the cache key f is traced and compiled a second time.

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
def f(x):
    print('recompiling')
    return (x + 10) * 100


# first call: compiles
a = f(jax.numpy.arange(3000).reshape((-1, 2, 2)).block_until_ready())  # recompiling
# second call: same shape, so the cache is used and there is no recompilation
b = f(jax.numpy.arange(3000).reshape((-1, 2, 2)).block_until_ready())
# third call: the shape changed, so recompilation happens
c = f(jax.numpy.arange(4500).reshape((-1, 2, 2)).block_until_ready())  # recompiling. It would be nice if it weren't
_report({"jit(f)"}, 3)  # scaffolding
