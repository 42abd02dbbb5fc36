# source: https://crackedaicode.com/problems/nnx-jit
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: nnx.jit splits the module into a static graph definition and a traced state, so calling forward again with the same model and the same input shape hits the cache (one compile for two calls).

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
import jax.numpy as jnp
from flax import nnx

in_features, out_features, seed = 3, 4, 0  # scaffolding
x = jnp.ones((2, in_features))  # scaffolding

model = nnx.Linear(in_features, out_features, rngs=nnx.Rngs(seed))

@nnx.jit
def forward(model, x):
    return model(x)

out = forward(model, x)   # first call: trace + compile
out = forward(model, x)   # subsequent: cache hit
_report({"jit(forward)"}, 2)  # scaffolding
