# source: https://github.com/ethanluoyc/magi/commit/96e18b7798e3c6a451c9e7b2df3b51c4665fa69b
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: After the commit the learner builds a jitted _update_alpha closure once in __init__; five alpha updates compile once.
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
from typing import Any, Tuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

jax.tree_flatten = jax.tree_util.tree_flatten  # scaffolding: removed from jax, used by the repo
jax.tree_map = jax.tree_util.tree_map  # scaffolding: removed from jax, used by the repo


# Loss functions
def _loss_alpha(log_alpha: jnp.ndarray, log_probs: jnp.ndarray,
                target_entropy) -> jnp.ndarray:
  temperature = jnp.exp(log_alpha)
  return (temperature * (-log_probs - target_entropy)).mean(), {'alpha': temperature}


class DrQLearner:  # scaffolding: the alpha part of the learner (encoder/actor/critic need haiku networks and acme)

  def __init__(self, action_shape=(2,), init_temperature=0.1, temperature_learning_rate=3e-4, temperature_adam_b1=0.5):
    # Entropy coefficient.
    self._log_alpha = jnp.array(np.log(init_temperature), dtype=jnp.float32)
    self._opt_alpha = optax.adam(temperature_learning_rate,
                                 b1=temperature_adam_b1)
    self._opt_state_alpha = self._opt_alpha.init(self._log_alpha)
    target_entropy = -float(np.prod(action_shape))
    _alpha_loss_fn = partial(_loss_alpha, target_entropy=target_entropy)

    @jax.jit
    def _update_alpha(log_alpha, alpha_opt_state, log_probs):
      (loss, aux), grad = jax.value_and_grad(_alpha_loss_fn, has_aux=True)(log_alpha,
                                                                           log_probs)
      update, new_opt_state = self._opt_alpha.update(grad, alpha_opt_state)
      params_to_update = optax.apply_updates(log_alpha, update)
      return new_opt_state, params_to_update, loss, aux

    self._update_alpha = _update_alpha

  def update(self, log_probs):
      self._opt_state_alpha, self._log_alpha, loss_alpha, alpha_stats = self._update_alpha(
          self._log_alpha,
          self._opt_state_alpha,
          log_probs,
      )
      return loss_alpha


learner = DrQLearner()  # scaffolding
for step in range(5):  # scaffolding: five learner steps
  learner.update(jnp.full((8,), -0.5 - 0.1 * step, dtype=jnp.float32))  # scaffolding: the actor's log-probs
_report({"jit(_update_alpha)"}, 5)  # scaffolding
