# source: https://github.com/patrick-kidger/diffrax/issues/379
# expect: trace-time-error at line 42
# runtime: ERROR TracerBoolConversionError
# why: max_steps is an argument of the jitted function, so diffeqsolve receives a tracer for it and its Python check on max_steps raises TracerBoolConversionError while tracing (the reporter: 'I'm passing in max steps as an argument and it's tripping up the tracer').

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


try:  # scaffolding
    compiled = jax.jit(solve).lower(jnp.array(1.0), 4096).compile()
    compiled.cost_analysis()  # scaffolding: the FLOP count of jax#10542
    _report({"jit(solve)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
