# source: https://github.com/google/flax/issues/5489
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the graphdef of (model, optimizer, MultiMetric) is passed to jax.jit as a static argument; the reported unhashable list inside MultiMetric is a tuple on flax 0.12.8 (fixed by flax PR #5492), so run_step_error1 hashes its graphdef and compiles once for two calls.

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
from flax import nnx
import optax
from functools import partial

class TrivialModel(nnx.Module):
	def __init__(self, in_features: int, out_features: int, rngs: nnx.Rngs):
		self.linear = nnx.Linear(in_features, out_features, rngs=rngs)

	def __call__(self, x: jax.Array) -> jax.Array:
		return self.linear(x)

def setup():
	rngs = nnx.Rngs(0)
	model = TrivialModel(in_features=4, out_features=2, rngs=rngs)
	optimizer = nnx.ModelAndOptimizer(model, optax.sgd(learning_rate=0.01))
	metrics = nnx.MultiMetric(loss=nnx.metrics.Average('loss'))
	return model, optimizer, metrics

@partial(jax.jit, static_argnames=['graphdef'])
def run_step_error1(graphdef: nnx.GraphDef, state: nnx.State, x: jax.Array, y: jax.Array):
	model, optimizer, metrics = nnx.merge(graphdef, state)
	def loss_fn(m: nnx.Module):
		predictions = m(x)
		# Simple Mean Squared Error
		return jnp.mean((predictions - y) ** 2)
	loss, grads = nnx.value_and_grad(loss_fn)(model)  # scaffolding from here on
	optimizer.update(grads)
	metrics.update(loss=loss)
	return loss, nnx.state((model, optimizer, metrics))

model, optimizer, metrics = setup()
graphdef, state = nnx.split((model, optimizer, metrics))
x, y = jnp.ones((8, 4)), jnp.zeros((8, 2))
for _ in range(2):
	loss, state = run_step_error1(graphdef, state, x, y)
_report({"jit(run_step_error1)"}, 2)
