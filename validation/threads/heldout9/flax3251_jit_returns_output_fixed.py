# source: https://github.com/google/flax/issues/3251
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: the reporter's first snippet returns the model output from the jitted infer (the local output shadows the global), so each call returns the real result; infer compiles once.

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
import flax.linen as nn


class Model(nn.Module):  # scaffolding: stand-in for the reporter's model
    @nn.compact
    def __call__(self, x):
        return nn.Dense(4)(x)


model = Model()  # scaffolding
params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 8, 8, 3)))  # scaffolding

input_shape = (1, 8, 8, 3)  # scaffolding: (1, 512, 512, 3) in the report
output = None

@jax.jit
def infer(x):
    output = model.apply(params, x)
    return output
import time

output = infer(jnp.ones(input_shape))
del output

s = time.time()
for i in range(3):  # scaffolding: tqdm.tqdm(range(1000)) in the report
    output = infer(jnp.ones(input_shape))
    output = None
    #output = model.apply(params, jnp.ones(input_shape))
e = time.time()
_report({"jit(infer)"}, 4)  # scaffolding
