# source: https://crackedaicode.com/problems/nnx-state-split-merge
# expect: jit-in-loop-or-body at line 34
# runtime: COMPILES 3 CALLS 3
# why: nnx_jit_apply defines and jax.jit-decorates a new pure_fn on every call, so each call of the sketch compiles again (3 compiles for 3 calls with the same model and x).
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


import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from flax import nnx  # scaffolding

def nnx_jit_apply(model, x):
    graphdef, state = nnx.split(model)
    @jax.jit
    def pure_fn(state, x):
        m = nnx.merge(graphdef, state)
        return m(x)
    return pure_fn(state, x)


model = nnx.Linear(in_features=3, out_features=4, rngs=nnx.Rngs(0))
x = jnp.array([1.0, 2.0, 3.0])

for _ in range(3):  # scaffolding
    out = nnx_jit_apply(model, x)  # scaffolding
_report({"jit(pure_fn)"}, 3)  # scaffolding
