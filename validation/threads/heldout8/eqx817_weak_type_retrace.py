# source: https://github.com/patrick-kidger/equinox/issues/817
# expect: shape-churn at line 51
# runtime: ERROR RuntimeError
# why: y_strong is a strongly typed f32 scalar and y_weak = jnp.array(1.0) is weakly typed; the weak_type bit is part of jit's cache key, so f_jit traces a second time on the second call and eqx.debug.assert_max_traces(max_traces=1) raises.

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
import jax.numpy as jnp

def f(y):
    return y + jnp.ones(())

y_strong = jnp.ones(())
y_weak = jnp.array(1.0)
assert not y_strong.weak_type
assert y_weak.weak_type

assert jnp.allclose(y_strong, y_weak)
strong_shape = jax.eval_shape(f, y_strong)
weak_shape = jax.eval_shape(f, y_weak)

assert strong_shape == weak_shape

f_jit = jax.jit(eqx.debug.assert_max_traces(f, max_traces=1))

try:  # scaffolding
    f_jit(y_strong)
    f_jit(y_weak)
    _report({"jit(f)"}, 2)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
