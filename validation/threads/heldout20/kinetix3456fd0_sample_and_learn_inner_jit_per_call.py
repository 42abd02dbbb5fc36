# source: https://github.com/FLAIROx/Kinetix/commit/3456fd0eaf7a797a5db9f3d85f3de7c5506fc3ac
# expect: jit-in-loop-or-body at line 139
# runtime: COMPILES 3 CALLS 3
# why: The commit's fix defines the jitted inner (and single_step) inside sample_trajectories_and_learn, so every call makes a new jitted function and inner compiles again on each of the 3 calls.

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
from typing import Tuple

import chex
import jax
import jax.numpy as jnp


# kinetix/util/learning.py after the commit
def compute_gae(
    gamma: float,
    lambd: float,
    last_value: chex.Array,
    values: chex.Array,
    rewards: chex.Array,
    dones: chex.Array,
) -> Tuple[chex.Array, chex.Array]:
    """This takes in arrays of shape (NUM_STEPS, NUM_ENVS) and returns the advantages and targets."""

    def compute_gae_at_timestep(carry, x):
        gae, next_value = carry
        value, reward, done = x
        delta = reward + gamma * next_value * (1 - done) - value
        gae = delta + gamma * lambd * (1 - done) * gae
        return (gae, value), gae

    _, advantages = jax.lax.scan(
        compute_gae_at_timestep,
        (jnp.zeros_like(last_value), last_value),
        (values, rewards, dones),
        reverse=True,
        unroll=16,
    )
    return advantages, advantages + values


def sample_trajectories_rnn(rng, env, env_params, train_state, init_hstate, init_obs, init_env_state,  # scaffolding
                            num_envs, num_steps, return_states=False):  # scaffolding: stand-in rollout
    rng, k = jax.random.split(rng)  # scaffolding
    x = jax.random.normal(k, (num_steps, num_envs)) * train_state  # scaffolding
    traj = (x, x, x, jnp.zeros_like(x), x, x, {"r": x}) + ((x,) if return_states else ())  # scaffolding
    return (rng, train_state, init_hstate, init_obs, init_env_state, x[-1]), traj  # scaffolding


def update_actor_critic_rnn(rng, train_state, init_hstate, batch, num_envs, n_steps, n_minibatch, n_epochs,  # scaffolding
                            clip_eps, ent_coef, vf_coef, update_grad=True):  # scaffolding: stand-in PPO update
    loss = jnp.mean(batch[5] ** 2) * jnp.ones((n_epochs, n_minibatch))  # scaffolding
    return (rng, train_state - 0.01 * loss.mean() if update_grad else train_state), (loss, loss)  # scaffolding

# Cannot jit outside otherwise jax errors with trying to hash a tracer.
# @partial(jax.jit, static_argnums=(0, 2, 8, 9))
def sample_trajectories_and_learn(
    env,
    env_params,
    config: dict,
    rng: chex.PRNGKey,
    train_state,
    init_hstate: chex.Array,
    init_obs,
    init_env_state,
    update_grad: bool = True,
    return_states: bool = False,
):
    """This function loops the following:
        - rollout for config['num_steps']
        - learn / update policy
    """

    @jax.jit
    def single_step(carry, _):
        rng, train_state, init_hstate, init_obs, init_env_state = carry
        ((rng, train_state, new_hstate, last_obs, last_env_state, last_value), traj,) = sample_trajectories_rnn(
            rng,
            env,
            env_params,
            train_state,
            init_hstate,
            init_obs,
            init_env_state,
            config["num_train_envs"],
            config["num_steps"],
            return_states=return_states,
        )
        if return_states:
            states = traj[-1]
            traj = traj[:-1]

        (obs, actions, rewards, dones, log_probs, values, info) = traj
        advantages, targets = compute_gae(config["gamma"], config["gae_lambda"], last_value, values, rewards, dones)

        # Update the policy using trajectories collected from replay levels
        (rng, train_state), (losses, grads) = update_actor_critic_rnn(
            rng,
            train_state,
            init_hstate,
            (obs, actions, dones, log_probs, values, targets, advantages),
            config["num_train_envs"],
            config["num_steps"],
            config["num_minibatches"],
            config["update_epochs"],
            config["clip_eps"],
            config["ent_coef"],
            config["vf_coef"],
            update_grad=update_grad,
        )
        new_carry = (rng, train_state, new_hstate, last_obs, last_env_state)
        step = (obs, actions, rewards, dones, log_probs, values, info, advantages, targets, losses, grads)
        if return_states:
            step += (states,)
        return new_carry, step

    @jax.jit
    def inner(rng, train_state, init_hstate, init_obs, init_env_state):
        carry = (rng, train_state, init_hstate, init_obs, init_env_state)
        new_carry, all_rollouts = jax.lax.scan(single_step, carry, None, length=config["outer_rollout_steps"])

        all_rollouts = jax.tree_util.tree_map(lambda x: jnp.concatenate(x, axis=0), all_rollouts)
        return new_carry, all_rollouts

    return inner(rng, train_state, init_hstate, init_obs, init_env_state)


class _Env:  # scaffolding: stands for the Kinetix env (hashable by identity)
    pass


env, env_params = _Env(), None  # scaffolding
config = {"num_train_envs": 4, "num_steps": 8, "gamma": 0.99, "gae_lambda": 0.95, "num_minibatches": 2,  # scaffolding
          "update_epochs": 1, "clip_eps": 0.2, "ent_coef": 0.01, "vf_coef": 0.5, "outer_rollout_steps": 2,  # scaffolding
          "exploratory_grad_updates": False}  # scaffolding: experiments/plr.py passes its config dict
rng, train_state = jax.random.PRNGKey(0), jnp.float32(1.0)  # scaffolding
init_hstate = init_obs = init_env_state = jnp.zeros((4,))  # scaffolding
try:  # scaffolding
    for _ in range(3):  # scaffolding: three PLR iterations
        (rng, train_state, init_hstate, init_obs, init_env_state), rollouts = sample_trajectories_and_learn(  # scaffolding: plr.py call
            env,
            env_params,
            config,
            rng,
            train_state,
            init_hstate,
            init_obs,
            init_env_state,
            update_grad=config["exploratory_grad_updates"],
            return_states=True,
        )
    _report({"jit(inner)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
