# source: https://github.com/google/flax/issues/853
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the pattern the maintainer names, static_argnums for the module, makes the (hashable, unbound) Linen Module a compile-time constant; eval_step compiles once for its two calls.

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
import functools
import jax
import jax.numpy as jnp  # scaffolding
import flax.linen as nn  # scaffolding


class Model(nn.Module):  # scaffolding
  features: int

  @nn.compact
  def __call__(self, x):
    return nn.Dense(self.features)(x)


def compute_metrics(logits, labels):  # scaffolding
  loss = jnp.mean((logits - labels) ** 2)
  accuracy = jnp.mean(jnp.argmax(logits, -1) == jnp.argmax(labels, -1))
  return {'loss': loss, 'accuracy': accuracy}


test_ds = {'X': jnp.ones((4, 2)), 'y': jnp.ones((4, 1))}  # scaffolding
model = Model(1)
params = model.init(jax.random.PRNGKey(0), test_ds['X'])['params']  # scaffolding

@functools.partial(jax.jit, static_argnums=0)
def eval_step(model, params, batch):
  logits = model.apply({'params': params}, batch['X'])
  return compute_metrics(logits, batch['y'])

def eval_model(model, params, test_ds):
  metrics = eval_step(model, params, test_ds)
  metrics = jax.device_get(metrics)
  summary = jax.tree.map(lambda x: x.item(), metrics)
  return summary['loss'], summary['accuracy']

print(eval_model(model, params, test_ds))
print(eval_model(model, params, test_ds))  # scaffolding
_report({"jit(eval_step)"}, 2)  # scaffolding
