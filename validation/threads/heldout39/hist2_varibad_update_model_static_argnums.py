# source: https://github.com/aliang8/varibad_jax/commit/56680c4d851dfd24663a0b9182b3ae5dcc8c2d79
# expect: bad-static-spec at line 131
# runtime: ERROR ValueError
# why: After update_model was changed to take a TrainingState (self, ts, rng, batch, update_model) its decorator still says static_argnums=(0, 6), a position the 5-argument method does not have, so defining the class raises ValueError; the author's 'cleaning' commit 56680c4 changes it to (0, 4).
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
# varibad_jax/models/base.py at a4cdb36 (= 56680c4^) (RandomActionAgent cut; ml_collections and PolicyOutput imports dropped)
from absl import logging
from typing import Tuple, NamedTuple
import json
import jax
import chex
import optax
import pickle
import haiku as hk
import jax.numpy as jnp
from pathlib import Path
from functools import partial
import numpy as np  # scaffolding


@optax.inject_hyperparams
def optimizer(lr, eps):
    return optax.chain(
        # optax.clip_by_global_norm(config.policy.max_grad_norm),
        optax.adamw(lr, eps=eps),
    )


@chex.dataclass
class TrainingState:
    params: hk.Params
    state: hk.State
    opt_state: optax.OptState


try:  # scaffolding: the decorator raises while the class body runs
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
            ckpt_dir: str = "",
        ):
            self.config = config
            self.is_continuous = continuous_actions
            self.action_dim = action_dim
            self.observation_shape = observation_shape
            self.input_action_dim = input_action_dim
            self.task_dim = task_dim

            self._init_key = key
            self._ts = TrainingState(params=None, state=None, opt_state=None)

            w_init = hk.initializers.VarianceScaling(scale=2.0)
            b_init = hk.initializers.Constant(0.0)
            self.init_kwargs = dict(w_init=w_init, b_init=b_init)

            if load_from_ckpt:
                if ckpt_dir:
                    ckpt_dir = Path(ckpt_dir) / "model_ckpts"
                    # search and sort by epoch
                    ckpt_files = sorted(ckpt_dir.glob("*.pkl"), reverse=True)
                    ckpt_file = ckpt_files[0]
                assert ckpt_file, "ckpt_file not provided"
                logging.info(f"loading {config.name} from checkpoint {ckpt_file}")
                with open(ckpt_file, "rb") as f:
                    ckpt = pickle.load(f)
                    if model_key:
                        params, state = (
                            ckpt[model_key]["params"],
                            ckpt[model_key]["state"],
                        )
                    else:
                        params, state = ckpt["params"], ckpt["state"]
            else:
                params, state = self._init_model()
            num_params = sum(p.size for p in jax.tree_util.tree_leaves(params))
            logging.info(f"number of {config.name} parameters: {num_params}")

            opt_state = self._init_opt(params)
            self._ts = TrainingState(params=params, state=state, opt_state=opt_state)

        def _init_model(self):
            raise NotImplementedError

        def _init_opt(self, params) -> None:
            """Initialize Adam optimizer for training."""
            if self.config.use_lr_scheduler:
                # apply linear warmup
                lr = optax.linear_schedule(
                    init_value=0,
                    end_value=self.config.lr,
                    transition_steps=self.config.warmup_steps,
                )
            else:
                lr = self.config.lr
            self.opt = optimizer(lr, self.config.eps)
            opt_state = self.opt.init(params)
            return opt_state

        @partial(jax.jit, static_argnums=(0, 6))
        def update_model(self, ts, rng, batch, update_model):
            logging.info("updating model")
            (loss, (metrics, new_state)), grads = jax.value_and_grad(
                self.loss_fn, has_aux=True
            )(ts, rng, batch)
            if update_model:
                grads, new_opt_state = self.opt.update(grads, ts.opt_state, ts.params)
                new_params = optax.apply_updates(ts.params, grads)
            else:
                new_opt_state = ts.opt_state
                new_params = ts.params
            new_ts = TrainingState(new_params, new_state, new_opt_state)
            return new_ts, metrics

        def update(self, rng, batch, update_model=True):
            self._ts, metrics = self.update_model(self._ts, rng, batch, update_model)
            return metrics

        @property
        def save_dict(self):
            return dict(
                params=self._ts.params,
                state=self._ts.state,
            )
except ValueError as e:  # scaffolding
    print("ERROR", type(e).__name__)  # scaffolding
    raise SystemExit(0)  # scaffolding


class BaseAgent(BaseModel):
    @partial(jax.jit, static_argnames=("self", "is_training"))
    def get_action_jit(self, ts, rng, env_state, **kwargs):
        return self.model.apply(ts.params, ts.state, rng, self, env_state, **kwargs)

    def get_action(self, rng, env_state, **kwargs):
        return self.get_action_jit(self._ts, rng, env_state, **kwargs)


class ConfigDict(dict):  # scaffolding: stand-in for ml_collections' ConfigDict
    __getattr__ = dict.__getitem__  # scaffolding


class MLPAgent(BaseAgent):  # scaffolding: stand-in for the repo's haiku actor-critic agent
    def _init_model(self):  # scaffolding
        def forward(agent, env_state, is_training=True):  # scaffolding
            return hk.nets.MLP([16, agent.action_dim])(env_state)  # scaffolding
        self.model = hk.transform_with_state(forward)  # scaffolding
        return self.model.init(self._init_key, self, jnp.zeros((1,) + self.observation_shape))  # scaffolding

    def loss_fn(self, params, state, rng, batch):  # scaffolding
        out, state = self.model.apply(params, state, rng, self, batch["obs"])  # scaffolding
        loss = jnp.mean((out - batch["target"]) ** 2)  # scaffolding
        return loss, (dict(loss=loss), state)  # scaffolding


config = ConfigDict(name="policy", use_lr_scheduler=False, lr=1e-2, eps=1e-8)  # scaffolding
obs = jnp.ones((3, 4))  # scaffolding
batch = dict(obs=obs, target=jnp.zeros((3, 2)))  # scaffolding
agent = MLPAgent(config, jax.random.PRNGKey(0), (4,), 2, 2, False)  # scaffolding
calls = 0  # scaffolding
for step in range(3):  # scaffolding: three training updates
    agent.update(jax.random.PRNGKey(step), batch)  # scaffolding
    calls += 1  # scaffolding
    print("update", step + 1, "optimizer step count:", int(agent._ts.opt_state.count))  # scaffolding
_report({"jit(update_model)"}, calls)  # scaffolding
