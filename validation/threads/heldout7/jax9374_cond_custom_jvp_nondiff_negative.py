# source: https://github.com/jax-ml/jax/issues/9374
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: A custom_jvp function with a nondiff_argnums scalar called through lax.cond under grad, which crashed with UnexpectedTracerError when reported, differentiates fine on 0.10.2.

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
import jax.lax as lax
import functools as ft

@ft.partial(jax.custom_jvp, nondiff_argnums=(0,))
def f(x, y):
    print("f")
    return y

@f.defjvp
def f_jvp(x, y, tang_y):
    print("f_jvp")
    x + 1  # Crashes on this line
    (y,) = y
    (tang_y,) = tang_y
    return y, tang_y

def g(y, x):
    return lax.cond(x < y, f, lambda _x, _y: _y, x, y)

grad_g = jax.jit(jax.grad(g))  # scaffolding
print(grad_g(1.0, 1.0))
print(grad_g(2.0, 1.0))  # scaffolding
_report({"jit(g)"}, 2)  # scaffolding
