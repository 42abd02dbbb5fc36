# source: https://openillumi.com/?p=109501
# expect: shape-churn at line 41
# runtime: COMPILES 2 CALLS 3
# why: The leading (-1) axis of the input changes between calls, and the input shape is part of jit's cache key, so the third call with a longer array traces and compiles f again (2 compiles for 3 calls); the answer quoted on the page is to pad to a fixed or bucketed size.

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
import jax  # scaffolding

@jax.jit
def f(x):
    print('recompiling')
    return (x + 10) * 100

# 1回目の呼び出し:コンパイルが発生
a = f(jax.numpy.arange(3000).reshape((-1, 2, 2)).block_until_ready()) # recompiling  (scaffolding: 300000000 -> 3000)
# 2回目の呼び出し:同じ形状なのでキャッシュが使われ、再コンパイルされない
b = f(jax.numpy.arange(3000).reshape((-1, 2, 2)).block_until_ready())  # scaffolding: 300000000 -> 3000
# 3回目の呼び出し:形状が変わったため、再コンパイルが発生してしまう
c = f(jax.numpy.arange(4500).reshape((-1, 2, 2)).block_until_ready()) # recompiling. It would be nice if it weren't  (scaffolding: 450000000 -> 4500)
_report({"jit(f)"}, 3)  # scaffolding
