# source: https://github.com/aliang8/varibad_jax/commit/bcb15cddb02b069a73d59467b1238e0134274194
# expect: stale-closure at line 99
# runtime: COMPILES 1 CALLS 3
# why: BaseAgent.get_action is jitted with self static and reads self._params/self._state inside, so the parameters are baked in at the first trace; after the learner replaces self._params the agent keeps acting with the initial weights (measured: steps 1-2 differ from a fresh apply, 1 compile for 3 calls).
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
# varibad_jax/models/base.py at bcb15cd^ (update_model/update and save_dict cut; see the labels' note)
from absl import logging
from typing import Tuple
import jax
import jax.numpy as jnp  # scaffolding
import numpy as np  # scaffolding
import optax
import haiku as hk
from functools import partial


@optax.inject_hyperparams
def optimizer(lr, eps):
    return optax.chain(
        # optax.clip_by_global_norm(config.policy.max_grad_norm),
        optax.adam(lr, eps=eps),
    )


class BaseModel:
    def __init__(
        self,
        config,
        observation_shape: Tuple,
        action_dim: int,
        input_action_dim: int,
        continuous_actions: bool,
        key: jax.random.PRNGKey,
    ):
        self.config = config
        self.is_continuous = continuous_actions
        self.action_dim = action_dim
        self.observation_shape = observation_shape
        self.input_action_dim = input_action_dim

        self._key = key
        self._params = None
        self._state = None
        self._opt_state = None

        self._init_model()
        num_params = sum(p.size for p in jax.tree_util.tree_leaves(self._params))
        logging.info(f"number of {config.name} parameters: {num_params}")

        self._init_opt()

    def _init_model(self):
        raise NotImplementedError

    def _init_opt(self) -> None:
        """Initialize Adam optimizer for training."""
        if self.config.anneal_lr:
            lr = optax.polynomial_schedule(
                init_value=self._learning_rate_start,
                end_value=self._learning_rate_end,
                power=1,  # 1: Linear decay
                transition_steps=self._learning_rate_decay_steps,
            )
        else:
            lr = self.config.lr
        self.opt = optimizer(lr, self.config.eps)
        self._opt_state = self.opt.init(self._params)


class BaseAgent(BaseModel):

    # using env_state because of naming conflict with hk state
    @partial(jax.jit, static_argnums=(0,))
    def get_action(self, rng, env_state, **kwargs):
        logging.info("inside get action")
        return self.model.apply(
            self._params, self._state, rng, self, env_state, **kwargs
        )


class ConfigDict(dict):  # scaffolding: stand-in for ml_collections' ConfigDict
    __getattr__ = dict.__getitem__  # scaffolding


class MLPAgent(BaseAgent):  # scaffolding: stand-in for the repo's haiku actor-critic agent
    def _init_model(self):  # scaffolding
        def forward(agent, env_state, is_training=True):  # scaffolding
            return hk.nets.MLP([16, agent.action_dim])(env_state)  # scaffolding
        self.model = hk.transform_with_state(forward)  # scaffolding
        self._params, self._state = self.model.init(INIT_KEY, self, jnp.zeros((1,) + self.observation_shape))  # scaffolding

    def loss_fn(self, params, state, rng, batch):  # scaffolding
        out, state = self.model.apply(params, state, rng, self, batch["obs"])  # scaffolding
        loss = jnp.mean((out - batch["target"]) ** 2)  # scaffolding
        return loss, (dict(loss=loss), state)  # scaffolding


INIT_KEY = jax.random.PRNGKey(0)  # scaffolding
config = ConfigDict(name="policy", anneal_lr=False, use_lr_scheduler=False, lr=1e-2, eps=1e-8)  # scaffolding
obs = jnp.ones((3, 4))  # scaffolding
batch = dict(obs=obs, target=jnp.zeros((3, 2)))  # scaffolding


agent = MLPAgent(config, (4,), 2, 2, False, INIT_KEY)  # scaffolding
calls = 0  # scaffolding
for step in range(3):  # scaffolding: act, then the learner changes the parameters
    out, _ = agent.get_action(jax.random.PRNGKey(1), obs)  # scaffolding
    calls += 1  # scaffolding
    fresh, _ = agent.model.apply(agent._params, agent._state, jax.random.PRNGKey(1), agent, obs)  # scaffolding
    print("step", step, "acts with current params:", bool(np.allclose(out, fresh)))  # scaffolding
    agent._params = jax.tree_util.tree_map(lambda p: p + 0.1, agent._params)  # scaffolding: stand-in for agent.update(...)
_report({"jit(get_action)"}, calls)  # scaffolding
