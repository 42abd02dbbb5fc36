# source: https://github.com/ethanluoyc/magi/commit/96e18b7798e3c6a451c9e7b2df3b51c4665fa69b
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: The shared optimize helper is jitted with the loss function, the optimizer's update function and max_grad_norm as static arguments; the learner passes the same partial and the same update function every step, so five alpha updates compile once.
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


@partial(jax.jit, static_argnums=(0, 1, 4))
def optimize(
    fn_loss: Any,
    opt: Any,
    opt_state: Any,
    params_to_update: Any,  # hk.Params
    max_grad_norm: float or None,
    *args,
    **kwargs,
) -> Tuple[Any, Any, jnp.ndarray, Any]:
  (loss, aux), grad = jax.value_and_grad(fn_loss, has_aux=True)(
      params_to_update,
      *args,
      **kwargs,
  )
  if max_grad_norm is not None:
    grad = clip_gradient_norm(grad, max_grad_norm)
  update, opt_state = opt(grad, opt_state)
  params_to_update = optax.apply_updates(params_to_update, update)
  return opt_state, params_to_update, loss, aux


@jax.jit
def clip_gradient_norm(
    grad: Any,
    max_grad_norm: float,
) -> Any:
  """
    Clip norms of gradients.
    """

  def _clip_gradient_norm(g):
    clip_coef = max_grad_norm / (jax.lax.stop_gradient(jnp.linalg.norm(g)) + 1e-6)
    clip_coef = jnp.clip(clip_coef, a_max=1.0)
    return g * clip_coef

  return jax.tree_map(lambda g: _clip_gradient_norm(g), grad)


# Loss functions
def _loss_alpha(log_alpha: jnp.ndarray, entropy: jnp.ndarray,
                target_entropy) -> jnp.ndarray:
  temperature = jnp.exp(log_alpha)
  return temperature * (entropy - target_entropy).mean(), None


class DrQLearner:  # scaffolding: the alpha part of the learner (encoder/actor/critic need haiku networks and acme)

  def __init__(self, action_shape=(2,), init_temperature=0.1, temperature_learning_rate=3e-4, temperature_adam_b1=0.5):
    # Entropy coefficient.
    self._log_alpha = jnp.array(np.log(init_temperature), dtype=jnp.float32)
    self._opt_alpha = optax.adam(temperature_learning_rate,
                                 b1=temperature_adam_b1)
    self._opt_state_alpha = self._opt_alpha.init(self._log_alpha)
    target_entropy = -float(np.prod(action_shape))
    self._alpha_loss_fn = partial(_loss_alpha, target_entropy=target_entropy)

  def update(self, entropy):
      self._opt_state_alpha, self._log_alpha, loss_alpha, _ = optimize(
          self._alpha_loss_fn,
          self._opt_alpha.update,
          self._opt_state_alpha,
          self._log_alpha,
          None,
          entropy=entropy,
      )
      return loss_alpha


learner = DrQLearner()  # scaffolding
for step in range(5):  # scaffolding: five learner steps
  learner.update(jnp.asarray(0.5 + 0.1 * step, dtype=jnp.float32))  # scaffolding: the actor's entropy
_report({"jit(optimize)"}, 5)  # scaffolding
