# source: https://github.com/google-deepmind/optax/pull/1108
# expect: shape-churn at line 57
# runtime: COMPILES 2 CALLS 4
# why: The L-BFGS state from optimizer.init carries weak-typed zoom-linesearch info, and the state returned by the jitted step is strongly typed, so the jitted training step compiles twice.

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
import jax
import optax
from time import time

key = jax.random.PRNGKey(42) # similar to the getting started guide
x = jax.random.normal(key, (16, 2))
y = jnp.sum(x * 0.5, axis=-1)
optimizer = optax.lbfgs()

@jax.jit
def training_step(params, state):
  print("I'm being compiled for", state[-1].info)
  def loss_fn(params):
    y_pred = (params @ x.T).T # a linear model
    loss = jnp.mean(optax.l2_loss(y_pred, y))
    return loss
  # scaffolding from here: the stored PR text is cut after "loss, grad = jax.value_a"; the rest is
  # optax's documented L-BFGS step
  loss, grad = jax.value_and_grad(loss_fn)(params)
  updates, state = optimizer.update(grad, state, params, value=loss, grad=grad, value_fn=loss_fn)
  params = optax.apply_updates(params, updates)
  return params, state, loss

params = jnp.zeros(2)
state = optimizer.init(params)
calls = 0
for i in range(4):  # scaffolding: a few steps
  params, state, loss = training_step(params, state)
  calls += 1
_report({"jit(training_step)"}, calls)
