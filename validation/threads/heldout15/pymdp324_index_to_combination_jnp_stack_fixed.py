# source: https://github.com/infer-actively/pymdp/issues/324
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the fix (commit 351e3d4, PR #325) builds the result with jnp.stack/jnp.flip, so the jitted decode_multi_actions traces and compiles once.
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
import numpy as np  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


def index_to_combination(index, dims):
    """
    Convert the combination index according to an array of categorical dimensions back to an array of categorical values
    """
    x = []
    for base in reversed(dims):
        x.append(index % base)
        index = index // base

    x = jnp.flip(jnp.stack(x, axis=-1), axis=-1)
    return x


class utils:  # scaffolding: namespace standing in for pymdp.utils
    index_to_combination = staticmethod(index_to_combination)  # scaffolding


class Agent:  # scaffolding: stand-in with the attributes decode_multi_actions reads
    def __init__(self):  # scaffolding
        self.batch_size = 1  # scaffolding
        self.num_controls_multi = [2, 3]  # scaffolding
        self.action_maps = [{"multi_dependency": [0, 1], "multi_dims": [2, 3]}]  # scaffolding

    def decode_multi_actions(self, action):
        """Decode flattened actions to multiple actions"""
        if self.action_maps is None:
            return action

        action_multi = jnp.zeros((self.batch_size, len(self.num_controls_multi))).astype(action.dtype)
        for f, action_map in enumerate(self.action_maps):
            if action_map["multi_dependency"] == []:
                continue

            action_multi_f = utils.index_to_combination(action[..., f], action_map["multi_dims"])
            action_multi = action_multi.at[..., action_map["multi_dependency"]].set(action_multi_f)
        return action_multi


agent = Agent()  # scaffolding
action = jnp.array([[4]])  # scaffolding: flattened action index 4 -> (1, 1)
print(agent.decode_multi_actions(action))  # scaffolding: works without jit
try:  # scaffolding
    out = jax.jit(agent.decode_multi_actions)(action)  # scaffolding
    _report({"jit(decode_multi_actions)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
