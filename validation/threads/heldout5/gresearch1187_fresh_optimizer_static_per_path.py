# source: https://github.com/google-research/google-research/issues/1187
# expect: changing-static at line 62
# runtime: COMPILES 3 CALLS 3
# why: train_step marks model and optimizer static; train_loop builds a new optax optimizer for every path, and an optax GradientTransformation hashes by the identity of its functions, so each path's first train_step call is a cache miss and the step is compiled again (3 paths, 3 compiles; the report's OOM grew with the compiled executables).
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


from functools import partial

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax

USE_DROPOUT = False  # scaffolding


def format_params(params, fixed_params):  # scaffolding: mu2Net merges trainable and frozen params
    return {**fixed_params, **params}  # scaffolding


@partial(jax.jit, static_argnames=['model', 'optimizer'], donate_argnums=[0, 2])
def train_step(params, fixed_params, opt_state, images, labels, model, optimizer):
  def loss_fn(params, fixed_params, images, labels):
    logits = model.apply({'params': format_params(params, fixed_params)},
                         images)  # scaffolding: the reporter's model also takes train=USE_DROPOUT
    labels = jax.nn.one_hot(labels, logits.shape[-1])
    return -jnp.mean(jnp.sum(labels * nn.log_softmax(logits), axis=-1))
  grads = jax.grad(loss_fn)(params, fixed_params, images, labels)
  updates, opt_state = optimizer.update(grads, opt_state, params=params)
  params = optax.apply_updates(params, updates)
  return params, opt_state


model = nn.Dense(10)  # scaffolding: every path in a generation has the same architecture
images = jnp.ones((8, 16))  # scaffolding
labels = jnp.zeros((8,), dtype=jnp.int32)  # scaffolding
n_calls = 0  # scaffolding
for path in range(3):  # scaffolding: train_loop is called for each path of a generation
    params = model.init(jax.random.PRNGKey(path), images)['params']  # scaffolding
    optimizer = optax.sgd(0.01, momentum=0.9)  # scaffolding: each path builds its optimizer from its hparams
    opt_state = optimizer.init(params)  # scaffolding
    params, opt_state = train_step(params, {}, opt_state, images, labels, model, optimizer)
    n_calls += 1  # scaffolding
_report({"jit(train_step)"}, n_calls)  # scaffolding
