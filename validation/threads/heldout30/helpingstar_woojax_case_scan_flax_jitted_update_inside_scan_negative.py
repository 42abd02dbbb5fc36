# source: https://github.com/helpingstar/woojax/blob/cf0e826aa197023e387c14da818f1d842187a11d/case-study/case_scan_flax.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 101
# why: the jitted update_params and the grad of the jitted mse are defined once; the Python loop reuses one compile for 101 steps, and the two lax.scan rollouts that call them inside the scan body run once each (the inner jits are inlined into the scan).
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



# cell 1
import jax
from typing import Any, Callable, Sequence
from jax import random, numpy as jnp
import flax
from flax import linen as nn
# cell 2
model = nn.Dense(features=5)
# cell 3
key1, key2 = random.split(random.key(0))
x = random.normal(key1, (10,))
params = model.init(key2, x)
jax.tree_util.tree_map(lambda x: x.shape, params)
# cell 4
n_samples = 20
x_dim = 10
y_dim = 5

key = random.key(0)
k1, k2 = random.split(key)
W = random.normal(k1, (x_dim, y_dim))
b = random.normal(k2, (y_dim,))
true_params = flax.core.freeze({'params': {'bias': b, 'kernel': W}})

key_sample, key_noise = random.split(k1)
x_samples = random.normal(key_sample, (n_samples, x_dim))
y_samples = jnp.dot(x_samples, W) + b + 0.1 * random.normal(key_noise,(n_samples, y_dim))
print('x shape:', x_samples.shape, '; y shape:', y_samples.shape)
# cell 5
@jax.jit
def mse(params, x_batched, y_batched):
  def squared_error(x, y):
    pred = model.apply(params, x)
    return jnp.inner(y-pred, y-pred) / 2.0
  return jnp.mean(jax.vmap(squared_error)(x_batched,y_batched), axis=0)
# cell 6
learning_rate = 0.3
print('Loss for "true" W,b: ', mse(true_params, x_samples, y_samples))
loss_grad_fn = jax.value_and_grad(mse)

@jax.jit
def update_params(params, learning_rate, grads):
  params = jax.tree_util.tree_map(
      lambda p, g: p - learning_rate * g, params, grads)
  return params

_calls = 0  # scaffolding
for i in range(101):
  _calls += 1  # scaffolding
  loss_val, grads = loss_grad_fn(params, x_samples, y_samples)
  params = update_params(params, learning_rate, grads)
  if i % 10 == 0:
    print(f'Loss step {i}: ', loss_val)
# cell 7
params = model.init(key2, x)

def rollout(carry, x):
    params, step = carry
    loss_val, grads = loss_grad_fn(params, x_samples, y_samples)
    params = update_params(params, learning_rate, grads)

    def print_loss_fn():
        jax.debug.print('Loss step {i}: {loss}', i=step, loss=loss_val)
        return loss_val
    
    loss_val = jax.lax.cond(step % 10 == 0, lambda _: print_loss_fn(), lambda _: loss_val, operand=None)
    return (params, step+1), loss_val

_, loss_vals = jax.lax.scan(rollout, (params, 0), None, 101)
# cell 8
params = model.init(key2, x)

def rollout(carry, x):
    (params, step, loss_history) = carry
    loss_val, grads = loss_grad_fn(params, x_samples, y_samples)
    params = update_params(params, learning_rate, grads)

    def store_loss_fn():
        return loss_history.at[step // 10].set(loss_val)
    
    loss_history = jax.lax.cond(step % 10 == 0, lambda _: store_loss_fn(), lambda _: loss_history, operand=None)
    return (params, step+1, loss_history), loss_val
#                                            f         init                                 xs    length
(_, _, final_loss_history), _ = jax.lax.scan(rollout, (params, 0, jnp.zeros((101 // 10,))), None, 101)
# cell 9
final_loss_history

print(sorted(_COMPILED), file=__import__("sys").stderr)  # scaffolding
_report({"jit(update_params)"}, _calls)  # scaffolding
