# source: https://github.com/Aneeshers/muzero-jax/commit/41a9ef403d546f615636a4f085c35cd1ee5536db
# expect: changing-static at line 166
# runtime: COMPILES 3 CALLS 8
# why: MuZero._init_policy jits mctx.muzero_policy with temperature (and the Dirichlet/PUCT floats) among static_argnames, and fit() feeds it a temperature schedule (1.0 -> 0.5 -> 0.25), so every new temperature value re-traces and re-compiles the whole MCTS policy; the commit keeps only the structural arguments static.

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
from typing import NamedTuple

import jax
from jax import numpy as jnp


class RootFnOutput(NamedTuple):  # scaffolding: mctx types
    prior_logits: jnp.ndarray
    value: jnp.ndarray
    embedding: jnp.ndarray


class RecurrentFnOutput(NamedTuple):  # scaffolding
    reward: jnp.ndarray
    discount: jnp.ndarray
    prior_logits: jnp.ndarray
    value: jnp.ndarray


class PolicyOutput(NamedTuple):  # scaffolding
    action: jnp.ndarray
    action_weights: jnp.ndarray


def qtransform_by_parent_and_siblings(*a, **k):  # scaffolding: mctx name only
    raise NotImplementedError


class mctx:  # scaffolding: mctx is not installed; muzero_policy keeps mctx's signature but does no tree search
    @staticmethod
    def muzero_policy(params, rng_key, root, recurrent_fn, num_simulations, invalid_actions=None,
                      max_depth=None, loop_fn=jax.lax.fori_loop, *, qtransform=None,
                      dirichlet_fraction=0.25, dirichlet_alpha=0.3, pb_c_init=1.25, pb_c_base=19652,
                      temperature=1.0):
        dir_key, act_key = jax.random.split(rng_key)
        n = root.prior_logits.shape[-1]
        noise = jax.random.dirichlet(dir_key, jnp.full((n,), dirichlet_alpha), root.prior_logits.shape[:1])
        probs = (1 - dirichlet_fraction) * jax.nn.softmax(root.prior_logits) + dirichlet_fraction * noise

        def body(i, visits):
            out, _ = recurrent_fn(params, rng_key, jnp.argmax(probs + visits, -1), root.embedding)
            return visits + jax.nn.one_hot(jnp.argmax(out.prior_logits, -1), n) * pb_c_init * jnp.log1p(i / pb_c_base + 1.0)

        visits = loop_fn(0, num_simulations, body, jnp.zeros_like(probs))
        action_weights = jax.nn.softmax(jnp.log(visits + probs) / temperature)
        action = jax.random.categorical(act_key, jnp.log(action_weights))
        return PolicyOutput(action, action_weights)


class MuZero:  # (repr/dyn/pred haiku networks, init, update, save/load cut)
  def __init__(self, policy='muzero'):  # scaffolding
    self.params = {"w": jax.random.normal(jax.random.PRNGKey(0), (4, 2)), "d": jax.random.normal(jax.random.PRNGKey(1), (2, 4))}
    self._policy = self._init_policy(policy)
    self._policy_type = policy

  def _root_inference(self, params, rng_key, obs):  # scaffolding
    logits = obs @ params["w"]
    return RootFnOutput(prior_logits=logits, value=logits.sum(-1), embedding=obs)

  def _recurrent_inference(self, params, rng_key, action, embedding):  # scaffolding
    logits = embedding @ params["w"] + action[:, None]
    out = RecurrentFnOutput(reward=jnp.zeros(logits.shape[:1]), discount=jnp.ones(logits.shape[:1]), prior_logits=logits, value=logits.sum(-1))
    return out, embedding

  def act(self, rng_key, obs, with_pi: bool = False, with_value: bool = False, obs_from_batch: bool = False, num_simulations: int = 50, temperature: float = 1., invalid_actions=None, max_depth: int = None, loop_fn = jax.lax.fori_loop,
        qtransform=None,
        dirichlet_fraction: float = 0.25,
        dirichlet_alpha: float = 0.3,
        pb_c_init: float = 1.25,
        pb_c_base: float = 19652,
        max_num_considered_actions: int = 16,
        gumbel_scale: float = 1):
    
    # (docstring trimmed)
    # Ensure a batch dim if we're acting on a single observation.
    if not obs_from_batch:
      obs = jnp.expand_dims(obs, axis=0)

    plan_output, root_value = self._plan(
        self.params,
        rng_key,
        obs,
        num_simulations,
        temperature,
        invalid_actions=invalid_actions,
        max_depth=max_depth,
        loop_fn=loop_fn,
        qtransform=qtransform,
        dirichlet_fraction=dirichlet_fraction,
        dirichlet_alpha=dirichlet_alpha,
        pb_c_init=pb_c_init,
        pb_c_base=pb_c_base,
        max_num_considered_actions=max_num_considered_actions,
        gumbel_scale=gumbel_scale,
    )

    if not obs_from_batch:
      # Unbatched case: return scalars / 1D arrays for a single env.
      action = plan_output.action[0]          # shape: ()
      root_value = root_value[0]             # shape: ()
      if with_pi:
        action_weights = plan_output.action_weights[0]  # shape: [num_actions]
    else:
      # Batched case: keep full batch dimension.
      action = plan_output.action             # shape: [B]
      root_value = root_value                # shape: [B]
      if with_pi:
        action_weights = plan_output.action_weights  # shape: [B, num_actions]

    # Return in the same combinations as before, but as JAX arrays.
    if with_pi and with_value:
      return action, action_weights, root_value
    elif not with_pi and with_value:
      return action, root_value
    elif with_pi and not with_value:
      return action, action_weights
    else:
      return action


  def _plan(self, params, rng_key, obs,
           num_simulations: int = 5,
           temperature: float = 1.,
          invalid_actions=None,
          max_depth: int = None, 
          loop_fn = jax.lax.fori_loop,
          qtransform=None, 
          dirichlet_fraction: float = 0.25, 
          dirichlet_alpha: float = 0.3, 
          pb_c_init: float = 1.25, 
          pb_c_base: float = 19652,
          max_num_considered_actions: int = 16,
          gumbel_scale: float = 1):
    root = self._root_inference(params, rng_key, obs)
  
    if qtransform is None:
      qtransform = qtransform_by_parent_and_siblings
    plan_output = self._policy(params, rng_key, root, self._recurrent_inference,
                              num_simulations=num_simulations,
                              temperature=temperature,
                              invalid_actions=invalid_actions,
                              max_depth=max_depth, 
                              loop_fn=loop_fn,
                              qtransform=qtransform, 
                              dirichlet_fraction=dirichlet_fraction, 
                              dirichlet_alpha=dirichlet_alpha, 
                              pb_c_init=pb_c_init, 
                              pb_c_base=pb_c_base)
    # elif self._policy_type == 'gumbel':
    #   if qtransform is None:
    #     qtransform = qtransform_completed_by_mix_value
    #   plan_output = self._policy(params, rng_key, root, self._recurrent_inference,
    #                             num_simulations=num_simulations,
    #                             invalid_actions=invalid_actions, 
    #                             max_depth=max_depth, 
    #                             loop_fn=loop_fn, 
    #                             qtransform=qtransform, 
    #                             max_num_considered_actions=max_num_considered_actions, 
    #                             gumbel_scale=gumbel_scale)
    return plan_output, root.value
    
  def _init_policy(self, policy):
    policy_func = mctx.muzero_policy
    return jax.jit(policy_func, 
                    static_argnames=('temperature', 'recurrent_fn', 'num_simulations', 'loop_fn', 'qtransform', 'max_depth', 'dirichlet_fraction', 'dirichlet_alpha', 'pb_c_init', 'pb_c_base'),
                    )  # (backend='gpu' dropped: CPU run)
    # elif policy == 'gumbel':
    #   policy_func = mctx.gumbel_muzero_policy
    #   return jax.jit(policy_func, static_argnames=('recurrent_fn', 'num_simulations', 'max_num_considered_actions', 'gumbel_scale', 'loop_fn', 'qtransform', 'max_depth'), 
    #                  backend='cpu')


def _temperature_fn(max_training_steps, training_steps):
  r"""Determines the randomness for the action taken by the model"""
  if training_steps < 0.5 * max_training_steps:
      return 1.0
  elif training_steps < 0.75 * max_training_steps:
      return 0.5
  else:
      return 0.25


model = MuZero()  # scaffolding
key = jax.random.PRNGKey(0)  # scaffolding
max_training_steps = 8  # scaffolding: 8 training steps, one act per step
for training_step in range(max_training_steps):  # (fit's episode loop, reduced to one act per step)
    temperature = _temperature_fn(max_training_steps=max_training_steps, training_steps=training_step)
    key, subkey = jax.random.split(key)
    obs = jax.random.normal(jax.random.PRNGKey(10 + training_step), (4,))  # scaffolding: CartPole-sized observation
    a, pi, v = model.act(subkey, obs,
                         with_pi=True,
                         with_value=True,
                         obs_from_batch=False,
                         num_simulations=5,
                         temperature=temperature)
_report({"jit(muzero_policy)"}, max_training_steps)  # scaffolding
