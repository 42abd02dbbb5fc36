# source: https://github.com/jlin816/dynalang/issues/10
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: dynalang's preprocess passes the observation space's `high` (a 0-d numpy array) as jax.nn.one_hot's num_classes inside the jitted agent; the 2023 report got 'Non-hashable static arguments' from one_hot, but on jax 0.10.2 one_hot accepts it and the jitted preprocess compiles once.

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
import jax.numpy as jnp
import numpy as np


class Space:
    # scaffolding: stands in for embodied.Space; `high` is a 0-d numpy array, as in the issue
    def __init__(self, dtype, shape=(), low=0, high=None):
        self.dtype, self.shape, self.low = dtype, shape, low
        self.high = np.array(high)


class Agent:
    """scaffolding: the parts of dynalang's Agent used by preprocess."""

    def __init__(self, obs_space):
        self.obs_space = obs_space

    def preprocess(self, obs):
        obs = obs.copy()
        for key, value in obs.items():
            if key.startswith('log_') or key in ('key',):
                continue
            if key == "token":
                value = jax.nn.one_hot(value, self.obs_space[key].high)
            elif len(value.shape) > 3 and value.dtype == jnp.uint8:
                value = value.astype(jnp.float32) / 255.0
            else:
                value = value.astype(jnp.float32)
            obs[key] = value
        obs['cont'] = 1.0 - obs['is_terminal'].astype(jnp.float32)
        return obs


# scaffolding: the agent's train/policy functions are jitted; a small vocabulary instead of 32100
agent = Agent({"token": Space(np.uint32, (), 0, 100), "is_terminal": Space(bool)})
preprocess = jax.jit(agent.preprocess)
obs = {"token": jnp.array([3, 7]), "is_terminal": jnp.array([False, True])}
for _ in range(2):
    out = preprocess(obs)
print(out["token"].shape)
_report({"jit(preprocess)"}, 2)
