# source: https://github.com/patrick-kidger/diffrax/issues/142
# expect: changing-static at line 34
# runtime: COMPILES 3 CALLS 3
# why: vector_field is defined inside solve_ode, so every call wraps a new function object in ODETerm; diffeqsolve's filter_jit treats the term's function as static, the cache misses, and diffeqsolve is traced and compiled again on every iteration (3 compiles for 3 calls).

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
import gc, psutil, sys
import jax.numpy as jnp
import diffrax as dfx

def solve_ode():
  def vector_field(t, x, _): return -0.1*x
  t = jnp.arange(480)  # scaffolding: 4800 in the thread
  sol = dfx.diffeqsolve(
    terms=dfx.ODETerm(vector_field),
    solver=dfx.Dopri5(),
    t0=t[0], t1=t[-1], dt0=t[1], y0=1., max_steps=len(t))
  return sol.ys

for _ in range(3):  # scaffolding
  solve_ode()  # scaffolding
_report({"jit(diffeqsolve)"}, 3)  # scaffolding
