# source: https://docs.kidger.site/diffrax/further_details/faq/
# expect: changing-static at line 42
# runtime: ERROR RuntimeError
# why: under eqx.filter_jit a raw Python float is a static argument, so passing a different float each call re-traces run and eqx.debug.assert_max_traces(max_traces=1) raises on the second call, the pitfall the FAQ names.
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

@eqx.filter_jit  # scaffolding: the FAQ's 'or equivalently equinox.filter_jit' in place of jax.jit
@eqx.debug.assert_max_traces(max_traces=1)
def run(x, t1):
    term = diffrax.ODETerm(lambda t, y, args: -y)  # scaffolding: the '...' of the template
    sol = diffrax.diffeqsolve(term, diffrax.Tsit5(), 0.0, t1, 0.1, x)  # scaffolding
    return sol.ys  # scaffolding

x = jax.numpy.ones(3)  # scaffolding: the '...' of the template
calls = 0  # scaffolding
try:  # scaffolding
    for t1 in [1.0, 2.0, 3.0]:  # scaffolding: 'passing in different raw Python floats each time'
        jax.block_until_ready(run(x, t1))  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(run)"}, calls)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
