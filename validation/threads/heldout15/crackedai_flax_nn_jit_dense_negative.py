# source: https://crackedaicode.com/problems/flax-nn-jit
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: nn.jit(nn.Dense) lifts jit into the Module; init and apply each trace once (two different functions), with no repeated compiles.
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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import flax.linen as nn  # scaffolding

F = 5  # scaffolding
rng = jax.random.PRNGKey(0)  # scaffolding
x = jnp.ones((2, 3))  # scaffolding

JitDense = nn.jit(nn.Dense)
model = JitDense(features=F)
params = model.init(rng, x)
out = model.apply(params, x)
_report({"jit(core_fn)"}, 2)  # scaffolding: init and apply
