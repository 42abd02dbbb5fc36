# source: https://github.com/google/flax/issues/4151
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the model is split into graphdef and state, the state (including the RNG count) is threaded through the scan carry and merged inside the body, so nothing outside the trace is mutated; one compile for three jitted scans.

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

graphdef, state = nnx.split(model)


def scan(state, x):
    model = nnx.merge(graphdef, state)
    model(x)
    return nnx.state(model), None


run = jax.jit(lambda state, xs: jax.lax.scan(scan, state, xs))  # scaffolding: jitted so the compile is counted
calls = 0  # scaffolding
for _ in range(3):  # scaffolding
    state, _ = run(state, jnp.ones((10, 10)))
    calls += 1  # scaffolding
nnx.update(model, state)
_report({"jit(<lambda>)"}, calls)  # scaffolding
