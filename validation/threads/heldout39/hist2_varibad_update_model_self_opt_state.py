# source: https://github.com/aliang8/varibad_jax/commit/b1d06bf9c1b22a41ef53656dfb9cb06a68024e9c
# expect: stale-closure at line 117
# runtime: COMPILES 1 CALLS 3
# why: update_model is jitted with self static and reads self._opt_state inside, so the Adam state of the first trace is a constant: every update restarts from it (measured: the optimizer step count stays 1 after 3 updates, 1 compile for 3 calls).
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
# varibad_jax/models/base.py at b1d06bf^ (whole file; ml_collections import replaced)
from absl import logging
from typing import Tuple
import jax
import optax
import pickle
import haiku as hk
from pathlib import Path
from functools import partial
import jax.numpy as jnp  # scaffolding
import numpy as np  # scaffolding


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
        key: jax.random.PRNGKey,
        observation_shape: Tuple,
        action_dim: int,
        input_action_dim: int,
        continuous_actions: bool,
        task_dim: int = 0,
        model_key: str = "",
        load_from_ckpt: bool = False,
        ckpt_file: str = "",
    ):
        self.config = config
        self.is_continuous = continuous_actions
        self.action_dim = action_dim
        self.observation_shape = observation_shape
        self.input_action_dim = input_action_dim
        self.task_dim = task_dim

        self._init_key = key
        self._params = None
        self._state = None
        self._opt_state = None

        if load_from_ckpt:
            logging.info(f"loading {config.name} from checkpoint {ckpt_file}")
            with open(ckpt_file, "rb") as f:
                ckpt = pickle.load(f)
                if model_key:
                    self._params, self._state = (
                        ckpt[model_key]["params"],
                        ckpt[model_key]["state"],
                    )
                else:
                    self._params, self._state = ckpt["params"], ckpt["state"]
        else:
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

    @partial(jax.jit, static_argnums=(0, 5))
    def update_model(self, params, state, rng, batch, update_model):
        logging.info("updating model")
        (loss, (metrics, state)), grads = jax.value_and_grad(
            self.loss_fn, has_aux=True
        )(params, state, rng, batch)
        if update_model:
            grads, opt_state = self.opt.update(grads, self._opt_state)
            params = optax.apply_updates(params, grads)
        else:
            opt_state = self._opt_state
        return params, state, opt_state, metrics

    def update(self, rng, batch, update_model=True):
        self._params, self._state, self._opt_state, metrics = self.update_model(
            self._params, self._state, rng, batch, update_model
        )
        return metrics

    @property
    def save_dict(self):
        return dict(
            params=self._params,
            state=self._state,
        )


class BaseAgent(BaseModel):

    @partial(jax.jit, static_argnames=("self", "is_training"))
    def get_action_jit(self, params, state, rng, env_state, **kwargs):
        logging.info("inside get action")
        # jax.debug.print("{x}", x=params["ActorCritic/~/task_embed"]["w"].mean())
        return self.model.apply(params, state, rng, self, env_state, **kwargs)

    # using env_state because of naming conflict with hk state
    def get_action(self, rng, env_state, **kwargs):
        return self.get_action_jit(self._params, self._state, rng, env_state, **kwargs)


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


agent = MLPAgent(config, INIT_KEY, (4,), 2, 2, False)  # scaffolding
calls = 0  # scaffolding
for step in range(3):  # scaffolding: three training updates
    agent.update(jax.random.PRNGKey(step), batch)  # scaffolding
    calls += 1  # scaffolding
    print("update", step + 1, "optimizer step count:", int(agent._opt_state.count))  # scaffolding
_report({"jit(update_model)"}, calls)  # scaffolding
