# source: https://github.com/keraJLi/rejax/commit/bc825f47f19b832f5d7d6f28d2d8f12550a5f44c
# expect: trace-time-error at line 48
# runtime: ERROR ValueError
# why: DQN.train checks its arguments with not (train_state or rng); inside the jitted, vmapped train the rng is a traced uint32[2] key, so taking its truth value raises while tracing (ValueError: truth value of an array with more than one element is ambiguous).

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
import jax
from flax import struct
from jax import numpy as jnp


class DQNConfig(struct.PyTreeNode):  # scaffolding: a tiny stand-in for purerl's DQNConfig
    learning_rate: float = struct.field(pytree_node=True, default=0.1)
    total_timesteps: int = struct.field(pytree_node=False, default=40)
    eval_freq: int = struct.field(pytree_node=False, default=10)


class Algorithm:  # scaffolding
    pass


# purerl/algos/dqn/dqn.py (before the commit; the training loop is a small stand-in)
class DQN(Algorithm):
    @classmethod
    def train(cls, config, rng=None, train_state=None):
        if not (train_state or rng):
            raise ValueError("Either train_state or rng must be provided")

        ts = train_state or cls.initialize_train_state(config, rng)

        def eval_iteration(ts, unused):  # scaffolding: one "update" per eval period
            ts = {"params": ts["params"] - config.learning_rate * ts["params"], "rng": ts["rng"]}
            return ts, jnp.sum(ts["params"])

        ts, evaluation = jax.lax.scan(
            eval_iteration,
            ts,
            None,
            config.total_timesteps // config.eval_freq,
        )
        return ts, evaluation

    @classmethod
    def initialize_train_state(cls, config, rng):  # scaffolding
        rng, rng_agent = jax.random.split(rng)
        return {"params": jax.random.normal(rng_agent, (4,)), "rng": rng}


# benchmark/train.py: vmap the training function over seeds and jit it
train_config = DQNConfig()
keys = jax.random.split(jax.random.PRNGKey(0), 3)
vmap_train = jax.jit(jax.vmap(DQN.train, in_axes=(None, 0)))
try:  # scaffolding
    train_state, evaluation = vmap_train(train_config, keys)
    _report({"jit(train)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
