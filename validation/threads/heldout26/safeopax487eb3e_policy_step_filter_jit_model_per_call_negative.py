# source: https://github.com/yardenas/safe-opax/commit/487eb3eae83e2ca03839a1ca32df5a3e607df2fa
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: Policy.step wraps the model in eqx.filter_jit on every call, but equinox caches the compiled function on the module's structure, and the normalized observation is always float32[55], so 6 steps compile once.
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


import json
import jax
import numpy as np
import jax.numpy as jnp
import equinox as eqx

class Model(eqx.Module):
    dense1: eqx.nn.Linear
    dense2: eqx.nn.Linear
    dense3: eqx.nn.Linear

    def __init__(self, inputs, num_classes=1, *, key):
        super().__init__()
        key1, key2, key3 = jax.random.split(key, 3)
        self.dense1 = eqx.nn.Linear(inputs, 256, key=key1)
        self.dense2 = eqx.nn.Linear(256, 256, key=key2)
        self.dense3 = eqx.nn.Linear(256, num_classes, key=key3)

    def __call__(self, x):
        x = jax.nn.tanh(self.dense1(x))
        x = jax.nn.tanh(self.dense2(x))
        x = self.dense3(x)
        return x

class Policy:
    def __init__(self, model):
        self.model = model
        self.mean = None
        self.var = None

    def step(self, obs):
        if self.mean is not None and self.var is not None:
            obs = (obs - self.mean) / jnp.sqrt(self.var + 1e-8)
        obs = jnp.array(obs, dtype=jnp.float32)
        action = eqx.filter_jit(self.model)(obs)
        return action

    def load(self, path, mean=None, var=None):
        self.model, _ = load_model(path)
        if mean is not None and var is not None:
            self.mean = np.load(mean)[0]
            self.var = np.load(var)[0]

    def __call__(self, obs):
        return self.step(obs)

    def __str__(self):
        return "EquinoxPolicy"

    def __repr__(self):
        return "EquinoxPolicy"

def load_model(path: str) -> tuple[Model, dict[str, int]]:
    with open(path, "rb") as f:
        parameters = json.loads(f.readline().decode())
        model = Model(**parameters, key=jax.random.PRNGKey(0))
        return eqx.tree_deserialise_leaves(f, model), parameters


reaching_model = Model(55, 19, key=jax.random.PRNGKey(0))  # scaffolding: as HumanoidReachWrapper.__init__ builds it
reaching_policy = Policy(reaching_model)  # scaffolding
reaching_policy.mean = np.zeros(55)  # scaffolding: stand-in for np.load(mean_path)[0] (the .npy files are not available)
reaching_policy.var = np.ones(55)  # scaffolding: stand-in for np.load(var_path)[0]
rng = np.random.default_rng(0)  # scaffolding
for _ in range(6):  # scaffolding: six wrapper steps; each calls self.reaching_policy(reach_obs) on a float64 observation
    reach_obs = rng.normal(size=55)  # scaffolding: stand-in for get_reach_obs()
    action = np.clip(reaching_policy(reach_obs), -1, 1)  # scaffolding: as the wrapper's step() does
_report({"jit(Model)"}, 6)  # scaffolding
