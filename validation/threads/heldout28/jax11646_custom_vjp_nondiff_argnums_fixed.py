# source: https://github.com/jax-ml/jax/issues/11646
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: with x in nondiff_argnums the custom_vjp keeps the static 2.0 as a Python value, so int(x) works and grad(f) gives 6, 8, 10; the two jit(f) compiles both happen at the first grad call (the linearized and the transposed f) and later calls reuse them.
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

@partial(jax.custom_vjp, nondiff_argnums=(1,))  # fix: x is a non-differentiable (static) argument of the custom_vjp
def do_something(z,x):
    sq = int(x)
    return z**sq

def do_smth_fwd(z,x):
    sq = int(x)
    return do_something(z,x), (z,sq)

def do_smth_bwd(x, residual, g):  # fix: nondiff args come first in bwd
    z,sq = residual
    return (g*sq*z**(sq-1),)  # fix: one cotangent, for z only

do_something.defvjp(do_smth_fwd, do_smth_bwd)
    

@partial(jax.jit, static_argnums = (1))
def f(z,x):
    res = do_something(z,x)
    return res


gf = jax.grad(f)

print(gf(3.,2.))  # scaffolding: 2*3 = 6.0
print(gf(4.,2.))  # scaffolding: 8.0, same static x
print(gf(5.,2.))  # scaffolding: 10.0
_report({"jit(f)"}, 3)  # scaffolding
