# source: https://github.com/jax-ml/jax/issues/2912
# expect: trace-time-error at line 51
# runtime: ERROR UnexpectedTracerError
# why: g is jitted, so s reaches the custom_vjp f as a tracer in a position marked nondiff_argnums; differentiating raises UnexpectedTracerError (on 0.10.2 with an explicit message that nondiff_argnums must not receive tracers).

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
from jax import custom_vjp, jit, grad
from functools import partial


@partial(custom_vjp, nondiff_argnums=(0,))
def f(s, p):
    return 0.0


def fwd(s, p):
    return 0.0, ()


def bwd(s, residuals, f_bar):
    return s,


f.defvjp(fwd, bwd)


@jit
def g(s, p):
    return f(s, p)


try:  # scaffolding
    print(grad(partial(g, 0.2))(0.1))
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
