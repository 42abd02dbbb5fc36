# source: https://github.com/jax-ml/jax/issues/11646
# expect: trace-time-error at line 33
# runtime: ERROR ConcretizationTypeError
# why: x is static for jit(f), but custom_vjp traces every argument it is given, so inside do_something x is a tracer and int(x) raises ConcretizationTypeError while grad(f) traces (in 2022 this surfaced as an IndexError).
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



from functools import partial
import jax

@jax.custom_vjp
def do_something(z,x):
    sq = int(x)
    return z**sq

def do_smth_fwd(z,x):
    sq = int(x)
    return do_something(z,x), (z,sq)

def do_smth_bwd(residual, g):
    z,sq = residual
    return g*sq*z**(sq-1), None

do_something.defvjp(do_smth_fwd, do_smth_bwd)
    

@partial(jax.jit, static_argnums = (1))
def f(z,x):
    res = do_something(z,x)
    return res


gf = jax.grad(f)

try:  # scaffolding
    gf(3.,2.)
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
