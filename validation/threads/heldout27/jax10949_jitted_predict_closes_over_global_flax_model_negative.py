# source: https://github.com/jax-ml/jax/issues/10949
# expect: none
# runtime: COMPILES 1 CALLS 200
# why: predict is jitted once at module level and reads the global flax model, which never changes, so the 200 calls in the loop reuse one compilation; the reported host-memory growth was a Colab GPU runtime leak, not recompilation.
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

import os, psutil
memusage = lambda: psutil.Process(os.getpid()).memory_info().rss

class CNN(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Conv(features=32, kernel_size=(5, 5))(x)
        x = nn.Conv(features=3, kernel_size=(5, 5))(x)
        return x

SIZE = 32

@jax.jit
def predict(params):
    model_inputs = jnp.zeros((1, SIZE, SIZE, 3))
    correction = jnp.squeeze(model.apply(params, model_inputs))
    return correction

model = CNN()
batch = jnp.ones((1, SIZE, SIZE, 3))  # (batch, height, width, channels)
params = model.init(jax.random.PRNGKey(0), batch)

for i in range(200):  # scaffolding: range(1000) in the issue, cut to 200
    _ = predict(params)

    if i % 100 == 0:
        print(f"i={i} {memusage() / 1e6:.2f} MB")
_report({"jit(predict)"}, 200)  # scaffolding
