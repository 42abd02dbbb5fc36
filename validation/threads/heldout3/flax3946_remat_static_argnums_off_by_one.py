# source: https://github.com/google/flax/issues/3946
# expect: bad-static-spec at line 44
# runtime: ERROR TracerBoolConversionError
# why: nn.remat counts self as argument 0, so static_argnums=(1,) marks x, not the train flag; train is traced and `not train` in BatchNorm raises TracerBoolConversionError at model.init (measured: static_argnums=(2,) works).

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


import jax
import jax.numpy as jnp
import flax.linen as nn

class MLP(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        x = nn.BatchNorm(use_running_average=not train)(x)
        x = nn.Dense(512)(x)
        x = nn.relu(x)
        x = nn.Dense(512)(x)
        x = nn.relu(x)
        x = nn.Dense(1)(x)
        return x

# Works fine with this line commented out
MLP = nn.remat(MLP, static_argnums=(1,))

model = MLP()
rng_key = jax.random.PRNGKey(42)
input_example = jnp.ones((4, 3))  # scaffolding
try:  # scaffolding
    variables = model.init(rng_key, input_example, True)
    _report(set(), 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
