# source: https://php.wlsqs.com/faq/1902291.html
# expect: trace-time-error at line 34
# runtime: ERROR TracerBoolConversionError
# why: lax.switch traces every branch with abstract values, and the chained comparison 0. < x < 1. expands to (0. < x) and (x < 1.), whose 'and' calls bool() on a traced array, so tracing the branches raises TracerBoolConversionError.

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
from jax.lax import switch
import jax.numpy as jnp
from jax import grad

# ❌ 错误:链式比较触发 TracerBoolConversionError
func_0 = lambda x: jnp.where(0. < x < 1., x, 0.)
func_1 = lambda x: jnp.where(0. < x < 1., x, 1.)  # scaffolding (same form as func_0)

func_list = [func_0, func_1]
func = lambda index, x: switch(index, func_list, x)

try:  # scaffolding
    df = grad(func, argnums=1)(1, 2.0)
    print(df)
    _report({"jit(func)"}, 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
