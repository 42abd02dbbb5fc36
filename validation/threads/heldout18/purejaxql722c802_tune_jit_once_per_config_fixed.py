# source: https://github.com/mttga/purejaxql/commit/722c802651dab635aa61e4e9b20ee2c8eae7b487
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: The commit moves the jit and the run out of the key loop, one run per config; each sweep run compiles once.

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


import copy
import types  # scaffolding

import jax
import jax.numpy as jnp


# scaffolding: wandb is not installed; a stand-in whose agent runs the sweep function with one sampled config.
# As with a real sweep, wandb.config holds only the swept parameters (here LR).
class _Wandb:
    def __init__(self):
        self.config = {}

    def init(self, project=None):
        self.config = {"LR": 0.0005}

    def login(self):
        pass

    def sweep(self, sweep_config, entity=None, project=None):
        return "sweep-0"

    def agent(self, sweep_id, function, count=1):
        for _ in range(min(count, 2)):  # scaffolding: two sweep runs instead of 1000
            function()


wandb = _Wandb()


# scaffolding: make_train of pqn_gymnax.py needs gymnax; a small closure over config with the same shape:
# make_train(config) returns train(rng) that runs a lax.scan of NUM_UPDATES steps
def make_train(config):
    def train(rng):
        w = jax.random.normal(rng, (4,))

        def _update_step(w, _):
            grad = 2 * w
            return w - config["LR"] * grad, jnp.sum(w**2)

        w, metrics = jax.lax.scan(_update_step, w, None, config["NUM_UPDATES"])
        return {"runner_state": w, "metrics": metrics}

    return train


# purejaxql/pqn_gymnax.py after the commit
def tune(default_config):
    """Hyperparameter sweep with wandb."""

    default_config = {**default_config, **default_config["alg"]}
    alg_name = default_config.get("ALG_NAME", "pqn")
    env_name = default_config["ENV_NAME"]

    def wrapped_make_train():
        wandb.init(project=default_config["PROJECT"])

        config = copy.deepcopy(default_config)
        for k, v in dict(wandb.config).items():
            config[k] = v

        print("running experiment with params:", config)
        rng = jax.random.PRNGKey(config["SEED"])
        rngs = jax.random.split(rng, config["NUM_SEEDS"])
        train_vjit = jax.jit(jax.vmap(make_train(config)))
        outs = jax.block_until_ready(train_vjit(rngs))
        # return outs

    sweep_config = {
        "name": f"{alg_name}_{env_name}",
        "method": "bayes",
        "metric": {
            "name": "test_returned_episode_returns",
            "goal": "maximize",
        },
        "parameters": {
            "LR": {
                "values": [
                    0.001,
                    0.0005,
                    0.0001,
                    0.00005,
                ]
            },
        },
    }

    wandb.login()
    sweep_id = wandb.sweep(
        sweep_config, entity=default_config["ENTITY"], project=default_config["PROJECT"]
    )
    wandb.agent(sweep_id, wrapped_make_train, count=1000)


# scaffolding: the hydra config (config.yaml and a small alg config)
tune({"NUM_SEEDS": 2, "SEED": 0, "HYP_TUNE": True, "ENTITY": "", "PROJECT": "",
      "alg": {"ALG_NAME": "pqn", "ENV_NAME": "CartPole-v1", "LR": 0.001, "NUM_UPDATES": 50}})
_report({"jit(train)"}, 2)  # scaffolding: two sweep runs, each a new config
