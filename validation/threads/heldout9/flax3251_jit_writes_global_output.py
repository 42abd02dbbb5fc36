# source: https://github.com/google/flax/issues/3251
# expect: stale-closure at line 49
# runtime: COMPILES 1 CALLS 4
# why: infer assigns the model output to the global output instead of returning it; under jit the assignment happens only while tracing, so every call returns None (measured: None on each call; the 30x 'speed-up' in the report is the discarded result).

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
    global output
    output = model.apply(params, x)

import time

output = infer(jnp.ones(input_shape))
del output

s = time.time()
returned = []  # scaffolding
for i in range(3):  # scaffolding: tqdm.tqdm(range(1000)) in the report
    output = infer(jnp.ones(input_shape))
    returned.append(output)  # scaffolding
    output = None
    #output = model.apply(params, jnp.ones(input_shape))
e = time.time()
print("returned", returned, "global is tracer:", isinstance(globals().get("output"), jax.core.Tracer))  # scaffolding
_report({"jit(infer)"}, 4)  # scaffolding
