# source: https://qiita.com/s252151u/items/351e671333541251e16d
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the article's first example: a jitted f called with two int32 scalars of the same shape; the second call reuses the first compile.
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
import jax.numpy as jnp

@jax.jit
def f(x):
    return x * 2

# 初回呼び出し: コンパイル → 実行
result1 = f(jnp.array(5))

# 2回目以降: キャッシュされたコンパイル済みコードを使用(高速!)
result2 = f(jnp.array(10))
_report({"jit(f)"}, 2)  # scaffolding
