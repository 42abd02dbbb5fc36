# source: https://github.com/TTomilin/MEAL/commit/26b87105df489e8415b8cad52ea1ef6801e2f3a4
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: The commit makes env_idx static (static_argnums=(2, 4)) and passes the Python int; each environment (already a static argument) compiles once.

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

import jax
import jax.numpy as jnp
import optax
import flax.linen as nn  # scaffolding
from flax.training.train_state import TrainState


class cfg:  # scaffolding: the repo's config, cut down
    max_grad_norm = 0.5
    anneal_lr = False
    lr = 3e-4
    num_steps = 8
    num_envs = 2
    num_updates = 2


class Env:  # scaffolding: stand-in for an Overcooked layout environment (hashable by identity)
    def __init__(self, task_id, layout_name):
        self.task_id = task_id
        self.layout_name = layout_name
        self.agents = ["agent_0", "agent_1"]
        self.max_steps = 400


class Network(nn.Module):  # scaffolding: stand-in for the repo's actor-critic with per-env heads
    @nn.compact
    def __call__(self, obs, env_idx=0):
        return nn.Dense(1)(obs).sum()


env_names = ["cramped_room", "asymm_advantages"]  # scaffolding
max_soup_dict = {"cramped_room": 20.0, "asymm_advantages": 25.0}  # scaffolding
envs = [Env(i, name) for i, name in enumerate(env_names)]  # scaffolding
network = Network()  # scaffolding
linear_schedule = None  # scaffolding
train_state = TrainState.create(apply_fn=network.apply, params=network.init(jax.random.PRNGKey(0), jnp.ones((4, 3))),
                                tx=optax.adam(cfg.lr))  # scaffolding
cl_state = jnp.zeros(())  # scaffolding


# baselines/PPO_CL.py (main) after the commit: env_idx static (argnum 4), the loop passes the Python int
@partial(jax.jit, static_argnums=(2, 4))
def train_on_environment(rng, train_state, env, cl_state, env_idx):
    '''
    Trains the network using IPPO
    @param rng: random number generator
    returns the runner state and the metrics
    '''

    print(f"Training on environment: {env.task_id} - {env.layout_name}")

    # reset the learning rate and the optimizer
    tx = optax.chain(
        optax.clip_by_global_norm(cfg.max_grad_norm),
        optax.adam(learning_rate=linear_schedule if cfg.anneal_lr else cfg.lr, eps=1e-5)
    )
    new_optimizer = tx.init(train_state.params)
    train_state = train_state.replace(tx=tx, opt_state=new_optimizer)

    def _update_step(runner_state, unused):  # scaffolding: the update step cut to its metrics part
        train_state, update_step = runner_state
        obs_batch = jnp.ones((4, 3))  # scaffolding
        value = network.apply(train_state.params, obs_batch, env_idx=env_idx)
        info = {"soups": {agent: jnp.ones((cfg.num_steps,)) for agent in env.agents}}  # scaffolding
        metrics = {}  # scaffolding

        # General section
        # Update the step counter
        update_step += 1

        metrics["General/env_index"] = env_idx
        metrics["General/update_step"] = update_step
        metrics["General/env_step"] = update_step * cfg.num_steps * cfg.num_envs

        # Soup section
        # Agent-agnostic soup counting
        agent_soups = {}
        soup_delivered = 0
        for agent in env.agents:
            agent_soup = info["soups"][agent].sum()
            agent_soups[agent] = agent_soup
            soup_delivered += agent_soup
            metrics[f"Soup/{agent}_soup"] = agent_soup

        episode_frac = cfg.num_steps / env.max_steps
        metrics["Soup/total"] = soup_delivered
        metrics["Soup/scaled"] = soup_delivered / (max_soup_dict[env_names[env_idx]] * episode_frac)
        metrics["value"] = value  # scaffolding
        return (train_state, update_step), metrics

    runner_state, metrics = jax.lax.scan(_update_step, (train_state, 0), None, cfg.num_updates)  # scaffolding
    return runner_state, metrics


rng = jax.random.PRNGKey(0)  # scaffolding
# split the random number generator for training on the environments
rng, *env_rngs = jax.random.split(rng, len(envs) + 1)

calls = 0  # scaffolding
try:  # scaffolding
    for i, (rng, env) in enumerate(zip(env_rngs, envs)):
        # --- Train on environment i using the *current* ewc_state ---
        runner_state, metrics = train_on_environment(rng, train_state, env, cl_state, i)
        train_state = runner_state[0]
        calls += 1  # scaffolding
    print(float(metrics["Soup/scaled"][-1]))  # scaffolding
    _report({"jit(train_on_environment)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
