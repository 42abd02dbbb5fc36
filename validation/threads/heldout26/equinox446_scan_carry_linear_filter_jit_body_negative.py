# source: https://github.com/patrick-kidger/equinox/issues/446
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: an eqx.nn.Linear holds only arrays (plus static fields), so it is a valid scan carry; the eager scan with the eqx.filter_jit-wrapped body compiles once for its one call.
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

import jax, jax.random as jrnd
import equinox as eqx

key = jrnd.PRNGKey(5)
X = jrnd.normal(key, (20, 3))
y = jrnd.normal(key, (20, 1))

scanner = lambda carry, _: (carry, 5.0)

# 1. This works fine:
model1 = eqx.nn.Linear(X.shape[1], y.shape[1], key=key)
# NOTE: `model1` is the carry!
res1 = jax.lax.scan(eqx.filter_jit(scanner), model1, X)

print(res1[1][:3])  # scaffolding
_report({"jit(scan)"}, 1)  # scaffolding
