# source: https://docs.kidger.site/diffrax/further_details/faq/
# expect: none
# runtime: COMPILES 1 CALLS 21
# why: the FAQ's benchmarking template (jax.jit over eqx.debug.assert_max_traces(max_traces=1), compile once, then timeit.repeat on the same x) compiles once for 21 calls.
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

import diffrax  # scaffolding
import equinox as eqx
import jax
import timeit

@jax.jit
@eqx.debug.assert_max_traces(max_traces=1)
def run(x):
    term = diffrax.ODETerm(lambda t, y, args: -y)  # scaffolding: the '...' of the template
    sol = diffrax.diffeqsolve(term, diffrax.Tsit5(), 0.0, 1.0, 0.1, x)  # scaffolding
    return sol.ys  # scaffolding

x = jax.numpy.ones(3)  # scaffolding: the '...' of the template
run(x)  # compile
execution_time = min(timeit.repeat(lambda: jax.block_until_ready(run(x)), number=1, repeat=20))
_report({"jit(run)"}, 21)  # scaffolding
