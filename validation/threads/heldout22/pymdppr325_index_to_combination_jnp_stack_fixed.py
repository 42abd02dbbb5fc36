# source: https://github.com/infer-actively/pymdp/pull/325
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the PR switches index_to_combination to jnp.flip(jnp.stack(...)), so the jitted decode traces and compiles once for three same-shape actions.
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


import jax
from jax import numpy as jnp, random as jr
from jax import jit  # scaffolding
import numpy as np


def index_to_combination(index, dims):
    """
    Convert the combination index according to an array of categorical dimensions back to an array of categorical values

    Parameters
    ----------
    index: ``np.ndarray`` or `jax.Array` of shape `(batch_size)`
        ``np.ndarray`` or `jax.Array` index of the combination
    dims: ``list`` of ``int``
        ``list`` of ``int`` of categorical dimensions used for conversion

    Returns
    ----------
    x: ``numpy.ndarray`` or ``jax.Array`` of shape `(batch_size, act_dims)`
        ``numpy.ndarray`` or ``jax.Array`` of categorical values to be converted into combination index
    """
    x = []
    for base in reversed(dims):
        x.append(index % base)
        index = index // base

    x = jnp.flip(jnp.stack(x, axis=-1), axis=-1)
    return x


class utils:  # scaffolding: pymdp.utils namespace
    index_to_combination = staticmethod(index_to_combination)  # scaffolding


class Agent:  # pymdp.agent.Agent, cut to decode_multi_actions
    batch_size = 1  # scaffolding: what Agent.__init__ derives for num_controls=[2, 3, 2] with
    num_controls_multi = [2, 3, 2]  # scaffolding: B_action_dependencies=[[0], [0, 1], [1, 2]]
    action_maps = [  # scaffolding
        {"multi_dependency": [0], "multi_dims": [2]},  # scaffolding
        {"multi_dependency": [1, 2], "multi_dims": [3, 2]},  # scaffolding
    ]  # scaffolding

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


@jit  # scaffolding: the PR's test jits construct_and_run_agent, which ends with decode_multi_actions
def construct_and_run_agent(action):  # scaffolding
    action_multi = agent.decode_multi_actions(action)  # scaffolding
    return action_multi  # scaffolding


try:  # scaffolding
    for k in range(3):  # scaffolding
        construct_and_run_agent(jnp.array([[k % 2, k]]))  # scaffolding: flattened actions (batch 1, 2 factors)
    _report({"jit(construct_and_run_agent)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
