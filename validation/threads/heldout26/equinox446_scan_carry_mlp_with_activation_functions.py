# source: https://github.com/patrick-kidger/equinox/issues/446
# expect: trace-time-error at line 44
# runtime: ERROR TypeError
# why: the MLP carried through jax.lax.scan holds its activation functions as pytree leaves, and scan (whose body is an eqx.filter_jit wrapper) must trace the carry as arrays, so it raises TypeError (custom_jvp object is not a valid JAX type); the Linear carry before it works.
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

try:  # scaffolding
    # 2. This produces an error:
    model2 = eqx.nn.MLP(X.shape[1], y.shape[1], 6, 3, key=key)
    # NOTE: `model2` is the carry!
    res = jax.lax.scan(eqx.filter_jit(scanner), model2, X)
    _report({"jit(scan)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(str(e)[:200])  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
