# source: https://github.com/SwarmRL/SwarmRL/pull/25
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The merged PR builds the key from the traced seed argument, which the caller draws fresh with numpy on every call, so one compile serves all calls and each call explores differently.
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
# SwarmRL/SwarmRL PR #25: swarmrl/exploration_policies/random_exploration.py at 7eb8488
from abc import ABC
from functools import partial

import jax
import jax.numpy as np



_clip = np.clip  # scaffolding: jnp.clip's a_min/a_max keywords (jax 0.4 era) were removed; map them to min/max


def _clip_compat(x, a_min=None, a_max=None, **kw):  # scaffolding
    return _clip(x, kw.pop("min", a_min), kw.pop("max", a_max))


np.clip = _clip_compat  # scaffolding


class ExplorationPolicy:  # scaffolding: swarmrl.exploration_policies.exploration_policy stand-in
    pass

class RandomExploration(ExplorationPolicy, ABC):
    """
    Perform exploration by random moves.
    """

    def __init__(self, probability: float = 0.1):
        """
        Constructor for the random exploration module.

        Parameters
        ----------
        probability : float
                Probability that a random action will be chosen.
                Bound between [0.0, 1.0]
        """
        self.probability = probability

    @partial(jax.jit, static_argnums=(0,))
    def __call__(
        self, model_actions: np.ndarray, action_space_length: int, seed: int = 0
    ) -> np.ndarray:
        """
        Return an index associated with the chosen action.

        Parameters
        ----------
        model_actions : np.ndarray (n_colloids,)
                Action chosen by the model for each colloid.
        action_space_length : int
                Number of possible actions. Should be 1 higher than the actual highest
                index, i.e if I have actions [0, 1, 2, 3] this number should be 4.

        Returns
        -------
        action : np.ndarray
                Action chosen after the exploration module has operated for
                each colloid.
        """
        key = jax.random.PRNGKey(seed)
        sample = jax.random.uniform(key, shape=model_actions.shape)

        to_be_changed = np.clip(sample - self.probability, a_min=0, a_max=1)
        to_be_changed = np.clip(to_be_changed * 1e6, a_min=0, a_max=1)
        not_to_be_changed = np.clip(to_be_changed * -10 + 1, 0, 1)

        # Choose random actions
        key, subkey = jax.random.split(key)
        exploration_actions = jax.random.randint(
            subkey,
            shape=(model_actions.shape[0],),
            minval=0,
            maxval=action_space_length,
        )

        # Put the new actions in.
        model_actions = (
            model_actions * to_be_changed + exploration_actions * not_to_be_changed
        ).astype(np.int16)

        return model_actions


import numpy as onp  # scaffolding: flax_network.py's import
explorer = RandomExploration(probability=0.5)  # scaffolding: a FlaxModel holds this as self.exploration_policy
indices = np.zeros(16, dtype=np.int32)  # scaffolding: sampling_strategy(logits) output for 16 colloids
logits = np.zeros((16, 4))  # scaffolding
outs = []  # scaffolding
for _ in range(3):  # scaffolding: three calls of FlaxModel.compute_action
    out = explorer(
            indices, logits.shape[-1], onp.random.randint(8759865)
        )  # as in FlaxModel.compute_action
    outs.append(out)  # scaffolding
print("identical exploration across calls:", all(bool((o == outs[0]).all()) for o in outs))  # scaffolding
_report({"jit(__call__)"}, 3)  # scaffolding

