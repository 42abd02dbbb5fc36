# source: https://github.com/google/init2winit/commit/8edfa41e88bfd34338eb8081e18c39d33a906ba1
# expect: trace-time-error at line 44
# runtime: ERROR TracerBoolConversionError
# why: optax.inject_hyperparams(optax.adafactor) injects every numeric argument, including min_dim_size_to_factor, so inside the jitted update adafactor's Python `if` on it meets a tracer and raises TracerBoolConversionError.

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
import optax


class _HParams(dict):  # scaffolding: stands in for the ml_collections ConfigDict of hyperparameters
  __getattr__ = dict.__getitem__


def get_optimizer(hps, model=None):
  """Constructs the optax optimizer (only the adafactor branch kept)."""
  opt_init = None
  opt_update = None

  if hps.optimizer == 'adafactor':
    opt_init, opt_update = optax.inject_hyperparams(optax.adafactor)(
        learning_rate=0.0,  # Manually injected on each train step.
        decay_rate=hps.opt_hparams['adafactor_decay_rate'],
        clipping_threshold=hps.opt_hparams['clipping_threshold'])

  return opt_init, opt_update


# scaffolding: the jitted train step of trainer.update(), reduced to gradient + optimizer update
hps = _HParams(optimizer='adafactor',
               opt_hparams={'adafactor_decay_rate': 0.8, 'clipping_threshold': 1.0})
opt_init, opt_update = get_optimizer(hps)
params = {'dense': {'kernel': jnp.ones((256, 256)) * 0.01, 'bias': jnp.zeros(256)}}
optimizer_state = opt_init(params)


@jax.jit
def update(optimizer_state, params, batch):
  def cost(p):
    return jnp.mean((batch @ p['dense']['kernel'] + p['dense']['bias']) ** 2)
  grad = jax.grad(cost)(params)
  model_updates, new_optimizer_state = opt_update(grad, optimizer_state, params)
  return new_optimizer_state, optax.apply_updates(params, model_updates)


n_steps = 3
try:  # scaffolding
  for step in range(n_steps):
    batch = jax.random.normal(jax.random.PRNGKey(step), (4, 256))
    optimizer_state, params = update(optimizer_state, params, batch)
  jax.block_until_ready(params)
  _report({"jit(update)"}, n_steps)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
