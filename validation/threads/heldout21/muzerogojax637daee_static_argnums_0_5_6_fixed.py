# source: https://github.com/huangeddie/MuZeroGoJax/commit/637daee7c58cd36c0e98368c4a7227651a15a16e
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: With static_argnums=(0, 5, 6) the model and both optimizer functions are static, the same objects each step, so train_step compiles once.
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

import haiku as hk  # scaffolding
import jax.nn
import jax.numpy as jnp
import jax.random
from jax import jit
from jax.example_libraries import optimizers  # scaffolding: jax.experimental.optimizers in 2022


class gojax:  # scaffolding: stand-in for the gojax package
  @staticmethod
  def new_states(board_size, batch_size):
    return jnp.zeros((batch_size, 6, board_size, board_size), dtype=bool)


def self_play(model_fn, params, batch_size, board_size, max_num_steps, rng_key):  # scaffolding: game.self_play
  return jax.random.bernoulli(rng_key, 0.3, (batch_size, max_num_steps, 6, board_size, board_size))


def get_actions_and_labels(trajectories):  # scaffolding: game.get_actions_and_labels
  n, t = trajectories.shape[:2]
  return jnp.zeros((n, t), dtype=jnp.int32), jnp.ones((n, t), dtype=jnp.int32)


def compute_k_step_total_loss(model_fn, params, trajectories, actions, game_winners, k=1):  # scaffolding: value loss only
  logits = model_fn.apply(params, trajectories[:, 0].astype(jnp.float32))
  return jnp.mean(optax_like_sigmoid_xent(logits, (game_winners[:, 0] + 1) / 2))


def optax_like_sigmoid_xent(logits, labels):  # scaffolding
  return jnp.maximum(logits, 0) - logits * labels + jnp.log1p(jnp.exp(-jnp.abs(logits)))


def train_step(model_fn, opt_state, trajectories, actions, game_winners, opt_update, get_params,
               step):
    # pylint: disable=too-many-arguments
    """Updates the model in a single train_model step."""
    # K-step value loss and gradient.
    total_loss, grads = jax.value_and_grad(compute_k_step_total_loss, argnums=1)(model_fn,
                                                                                 get_params(
                                                                                     opt_state),
                                                                                 trajectories,
                                                                                 actions,
                                                                                 game_winners)
    # Update parameters.
    opt_state = opt_update(step, grads, opt_state)
    # Return updated parameters and loss metrics.
    return {'total_loss': total_loss}, opt_state


def train_model(model_fn, batch_size, board_size, training_steps, max_num_steps, learning_rate,
                rng_key, use_jit):
    # pylint: disable=too-many-arguments
    self_play_fn = jit(self_play, static_argnums=(0, 2, 3, 4)) if use_jit else self_play
    get_actions_and_labels_fn = jit(get_actions_and_labels) if use_jit else get_actions_and_labels
    train_step_fn = jit(train_step, static_argnums=(0, 5, 6)) if use_jit else train_step

    print("Initializing model...")
    params = model_fn.init(rng_key, gojax.new_states(board_size, 1))
    opt_init, opt_update, get_params = optimizers.adam(learning_rate)
    opt_state = opt_init(params)
    print(f'{sum(x.size for x in jax.tree_util.tree_leaves(get_params(opt_state)))} parameters')  # jax.tree_leaves in 2022
    for step in range(training_steps):
        print('Self-playing...')
        trajectories = self_play_fn(model_fn, get_params(opt_state), batch_size, board_size,
                                    max_num_steps, rng_key)
        print('Self-play complete.')
        actions, game_winners = get_actions_and_labels_fn(trajectories)
        print('Executing training step...')
        loss_metrics, opt_state = train_step_fn(model_fn, opt_state, trajectories, actions,
                                                game_winners, opt_update, get_params, step)
        print(f'Loss metrics: {loss_metrics}')

    return get_params(opt_state)


# scaffolding: a small haiku value model on a 5x5 board, 3 training steps
model_fn = hk.without_apply_rng(hk.transform(lambda x: hk.Linear(1)(x.reshape(x.shape[0], -1).astype(jnp.float32))[:, 0]))
try:
    train_model(model_fn, batch_size=2, board_size=5, training_steps=3, max_num_steps=4,
                learning_rate=1e-2, rng_key=jax.random.PRNGKey(0), use_jit=True)
    _report({"jit(train_step)"}, 3)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
