# source: https://github.com/patrick-kidger/diffrax/issues/379
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: with max_steps static (a Python int at trace time) the same solve lowers and compiles once and its cost analysis runs.

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
import jax.numpy as jnp
import diffrax


def solve(y0, max_steps):
    term = diffrax.ODETerm(lambda t, y, args: -y)  # scaffolding
    sol = diffrax.diffeqsolve(term, diffrax.Tsit5(), t0=0.0, t1=1.0, dt0=0.1, y0=y0,
                              max_steps=max_steps)
    return sol.ys


compiled = jax.jit(solve, static_argnames=("max_steps",)).lower(jnp.array(1.0), 4096).compile()
compiled.cost_analysis()
_report({"jit(solve)"}, 1)  # scaffolding
