# source: https://github.com/google/flax/issues/853
# expect: trace-time-error at line 52
# runtime: ERROR TypeError
# why: eval_step is jitted with no static_argnums, so the Linen Module instance passed as its first argument must be traced, but a Module is not an array or pytree and jit rejects it with TypeError (not a valid JAX type).

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

@jax.jit
def eval_step(model, params, batch):
  logits = model.apply({'params': params}, batch['X'])
  return compute_metrics(logits, batch['y'])

def eval_model(model, params, test_ds):
  metrics = eval_step(model, params, test_ds)
  metrics = jax.device_get(metrics)
  summary = jax.tree_map(lambda x: x.item(), metrics)
  return summary['loss'], summary['accuracy']

try:  # scaffolding
  print(eval_model(model, params, test_ds))
  _report({"jit(eval_step)"}, 1)
except Exception as e:
  print(f"ERROR {type(e).__name__}")
