# source: https://github.com/jax-ml/jax/issues/5017
# expect: trace-time-error at line 44
# runtime: ERROR ConcretizationTypeError
# why: under jit the step count jnp.array(delta_t // max_dt).astype(int) is staged out, so jnp.arange(steps) gets a traced size and raises ConcretizationTypeError.

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
import jax.numpy as jnp
from jax.lax import scan
import numpy as np

def jaxfixedsolve(rhs, t_span, y0, max_dt):

    delta_t = t_span[1] - t_span[0]
    steps = jnp.array(delta_t // max_dt).astype(int)
    h = delta_t / steps

    def scan_func(carry, step):
        eval_time = t_span[0] + (h * step)
        return (carry + rhs(eval_time, carry)*h, None)

    yf = scan(scan_func, y0, jnp.arange(steps))[0]
    return yf

def sim_function(coeff):

    def rhs(t, y):
        return coeff * y

    return jaxfixedsolve(rhs, t_span=[0, 0.5], y0=jnp.array(1., dtype=float), max_dt = 0.1)

print(sim_function(2.0))  # scaffolding: works without jit
try:  # scaffolding
    jax.jit(sim_function)(2.0)
    _report({"jit(sim_function)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
