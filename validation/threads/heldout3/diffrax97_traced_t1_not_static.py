# source: https://github.com/patrick-kidger/diffrax/issues/97
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: t1 is a traced argument of the jitted ivp and diffeqsolve accepts it (patrick-kidger: t1 can be traced), so ivp compiles once for three different end times.

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
from diffrax import diffeqsolve, ODETerm, Dopri5, SaveAt, PIDController
import jax.numpy as jnp

def f(t, y, args):
    return -y 

term = ODETerm(f)
solver = Dopri5()
stepsize_controller = PIDController(rtol=1e-5, atol=1e-5)

@jax.jit
def ivp(t1, y0):
  return diffeqsolve(term, solver, t0=0, t1=t1, dt0=0.1, y0=y0, saveat=SaveAt(t1=True), stepsize_controller=stepsize_controller).ys

for t1 in (1.0, 2.0, 3.0):  # scaffolding
    ivp(t1, jnp.array([1.0, 2.0]))
_report({"jit(ivp)"}, 3)  # scaffolding
