# source: https://github.com/uduse/moozi/commit/b29bb885fb45678f3700c3045b69ee205f91254f
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: RandomPolicy.run is jitted with self static and guarded by chex.assert_max_traces(n=1); the policy object has no state and is the same on every call, so run traces and compiles once for 5 calls and the guard stays quiet.
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



from collections import defaultdict
from functools import partial
from typing import Dict, List, NamedTuple, Optional, Tuple

import chex
import jax
import jax.numpy as jnp
import numpy as np

# moozi/policies/policy.py at the commit's parent (RandomPolicy is unchanged by the commit; imports of dm_env, acme, nptyping, rlax, moozi dropped)
class PolicyFeed(NamedTuple):
    stacked_frames: chex.ArrayDevice
    legal_actions_mask: chex.ArrayDevice
    random_key: chex.ArrayDevice


class PolicyResult(NamedTuple):
    action: chex.ArrayDevice
    extras: Dict[str, chex.ArrayDevice]


class Policy(object):
    def run(self, feed: PolicyFeed) -> PolicyResult:
        raise NotImplementedError

    def update(self, wait: bool = False) -> None:
        pass


# (class PriorPolicy cut)


class RandomPolicy(Policy):
    @partial(jax.jit, static_argnums=(0,))
    @chex.assert_max_traces(n=1)
    def run(self, feed: PolicyFeed) -> PolicyResult:
        action_probs = feed.legal_actions_mask / jnp.sum(feed.legal_actions_mask)
        action_indices = jnp.arange(feed.legal_actions_mask.size)
        action = jax.random.choice(feed.random_key, action_indices, p=action_probs)
        return PolicyResult(action=action, extras={})


# tests/test_policies.py::test_random_policy_sanity, run as an actor would (once per env step)
legal_actions_mask = np.zeros(10)
legal_actions_indices = [1, 2, 3]
legal_actions_mask[legal_actions_indices] = 1
legal_actions_mask = jnp.array(legal_actions_mask)
stacked_frames = jnp.stack([np.zeros(25, np.float32) for _ in range(2)])  # scaffolding: two catch frames
policy = RandomPolicy()
for t in range(5):  # scaffolding
    policy_feed = PolicyFeed(stacked_frames=stacked_frames, legal_actions_mask=legal_actions_mask, random_key=jax.random.PRNGKey(t))  # scaffolding
    result = policy.run(policy_feed)
    action_is_legal = policy_feed.legal_actions_mask[result.action] == 1
    assert action_is_legal
_report({"jit(run)"}, 5)  # scaffolding
