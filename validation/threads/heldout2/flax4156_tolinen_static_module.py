# source: https://github.com/google/flax/issues/4156
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the reported failure, hash(ToLinen(...)) raising on its dict kwargs, no longer happens with flax 0.12.8: the module hashes, so as a static argument of jax.jit it compiles once and runs.

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


from flax import linen as nn, nnx
import jax
import jax.numpy as jnp  # scaffolding

model = nnx.bridge.ToLinen(nnx.Linear, args=(32, 64))
x = jnp.ones((1, 32))  # scaffolding
variables = model.init(jax.random.PRNGKey(0), x)  # scaffolding
apply = jax.jit(lambda m, v, x: m.apply(v, x), static_argnums=0)  # scaffolding
apply(model, variables, x)
_report({"jit(<lambda>)"}, 1)  # scaffolding
