# source: https://github.com/google/flax/issues/4151
# expect: trace-time-error at line 53
# runtime: ERROR TraceContextError
# why: the stateful NNX model (its Dropout holds an Rngs stream) is closed over by the body of a raw jax.lax.scan; calling it inside the trace mutates the RNG count created outside, which NNX refuses with TraceContextError.

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
from flax import nnx
from functools import partial


class MLP(nnx.Module):

	def __init__(self, *, rngs: nnx.Rngs):
		self.linear1 = nnx.Linear(10, 256, rngs=rngs)
		self.linear2 = nnx.Linear(256, 10, rngs=rngs)
		self.dropout = nnx.Dropout(rate=0.5, rngs=rngs)

	def __call__(self, x):
		x = nnx.relu(self.dropout(self.linear1(x)))
		x = self.linear2(x)
		return x

model = MLP(rngs=nnx.Rngs(0))

model(jnp.ones((1, 10)))


def scan(carry, x):
    model(x)
    return carry, None

try:  # scaffolding
    jax.lax.scan(scan, None, jnp.ones((10, 10)))
    print("no error")  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
