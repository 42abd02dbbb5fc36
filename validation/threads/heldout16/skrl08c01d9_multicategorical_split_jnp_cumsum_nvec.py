# source: https://github.com/Toni-SM/skrl/commit/08c01d9ae886e5de20914e216fbbde7e55ff9c33
# expect: trace-time-error at line 105
# runtime: ERROR ConcretizationTypeError
# why: the policy's act runs inside the jitted _update_policy, where jnp.cumsum(self.action_space.nvec) is staged out, so jnp.split gets traced split indices and raises ConcretizationTypeError.

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


import functools  # scaffolding
from typing import Any, Mapping, Optional, Tuple, Union

from functools import partial

import flax
import flax.linen as nn  # scaffolding
import jax
import jax.numpy as jnp
import numpy as np


class _Config:  # scaffolding: skrl.config
    class jax:
        key = jax.random.PRNGKey(0)


config = _Config()


class MultiDiscrete:  # scaffolding: gym.spaces.MultiDiscrete
    def __init__(self, nvec):
        self.nvec = np.asarray(nvec)


# skrl/models/jax/multicategorical.py (before the commit; docstrings cut)
# https://jax.readthedocs.io/en/latest/faq.html#strategy-1-jit-compiled-helper-function
@partial(jax.jit, static_argnames=("unnormalized_log_prob"))
def _categorical(net_output,
                 unnormalized_log_prob,
                 taken_actions,
                 key):
    # normalize
    if unnormalized_log_prob:
        logits = net_output - jax.scipy.special.logsumexp(net_output, axis=-1, keepdims=True)
        # probs = jax.nn.softmax(logits)
    else:
        probs = net_output / net_output.sum(-1, keepdims=True)
        eps = jnp.finfo(probs.dtype).eps
        logits = jnp.log(probs.clip(min=eps, max=1 - eps))

    # sample actions
    actions = jax.random.categorical(key, logits, axis=-1, shape=None)

    # log of the probability density function
    taken_actions = actions if taken_actions is None else taken_actions.astype(jnp.int32).reshape(-1)
    log_prob = jax.nn.log_softmax(logits)[jnp.arange(taken_actions.shape[0]), taken_actions]

    return actions.reshape(-1, 1), log_prob.reshape(-1, 1)


class MultiCategoricalMixin:
    def __init__(self, unnormalized_log_prob: bool = True, reduction: str = "sum", role: str = "") -> None:
        self._unnormalized_log_prob = unnormalized_log_prob

        if reduction not in ["mean", "sum", "prod", "none"]:
            raise ValueError("reduction must be one of 'mean', 'sum', 'prod' or 'none'")
        self._reduction = jnp.mean if reduction == "mean" else jnp.sum if reduction == "sum" \
            else jnp.prod if reduction == "prod" else None

        self._i = 0
        self._key = config.jax.key

        self._action_space_shape = self._get_space_size(self.action_space, number_of_elements=False)

    def act(self,
            inputs: Mapping[str, Union[Union[np.ndarray, jax.Array], Any]],
            role: str = "",
            params: Optional[jax.Array] = None) -> Tuple[jax.Array, Union[jax.Array, None], Mapping[str, Union[jax.Array, Any]]]:
        self._i += 1
        subkey = jax.random.fold_in(self._key, self._i)
        inputs["key"] = subkey

        # map from states/observations to normalized probabilities or unnormalized log probabilities
        net_output, outputs = self.apply(self.state_dict.params if params is None else params, inputs, role)

        # split inputs
        net_outputs = jnp.split(net_output, jnp.cumsum(self.action_space.nvec), axis=-1)
        if "taken_actions" in inputs:
            taken_actions = jnp.split(inputs["taken_actions"], self._action_space_shape, axis=-1)
        else:
            taken_actions = [None] * self._action_space_shape

        # compute actions and log_prob
        actions, log_prob = [], []
        for _net_output, _taken_actions in zip(net_outputs, taken_actions):
            _actions, _log_prob = _categorical(_net_output,
                                               self._unnormalized_log_prob,
                                               _taken_actions,
                                               subkey)
            actions.append(_actions)
            log_prob.append(_log_prob)

        actions = jnp.concatenate(actions, axis=-1)
        log_prob = jnp.concatenate(log_prob, axis=-1)

        if self._reduction is not None:
            log_prob = self._reduction(log_prob, axis=-1)
        if log_prob.ndim != actions.ndim:
            log_prob = jnp.expand_dims(log_prob, -1)

        outputs["net_output"] = net_output
        # avoid jax.errors.UnexpectedTracerError
        outputs["stddev"] = jnp.full_like(log_prob, jnp.nan)
        return actions, log_prob, outputs


class _StateDict:  # scaffolding
    def __init__(self, params):
        self.params = params


class Policy(MultiCategoricalMixin):  # scaffolding: skrl Model (a flax Module) cut to apply() over one Dense layer
    def __init__(self, action_space):
        self.action_space = action_space
        self.net = nn.Dense(int(action_space.nvec.sum()))
        self.state_dict = _StateDict(self.net.init(jax.random.PRNGKey(1), jnp.zeros((1, 4))))
        MultiCategoricalMixin.__init__(self, unnormalized_log_prob=True, reduction="sum")

    def _get_space_size(self, space, number_of_elements=False):
        return len(space.nvec)

    def apply(self, params, inputs, role):
        return self.net.apply(params, inputs["states"]), {}


# skrl/agents/jax/ppo/ppo.py: the policy act is called inside the jitted update (loss cut to the log-prob ratio)
@functools.partial(jax.jit, static_argnames=("policy_act",))
def _update_policy(policy_act, params, sampled_states, sampled_actions, sampled_log_prob):
    def _policy_loss(params):
        _, next_log_prob, outputs = policy_act({"states": sampled_states, "taken_actions": sampled_actions}, "policy", params)
        ratio = jnp.exp(next_log_prob - sampled_log_prob)
        return -ratio.mean()

    return jax.value_and_grad(_policy_loss)(params)


# scaffolding: a MultiDiscrete([3, 2]) policy, one rollout act and three updates
policy = Policy(MultiDiscrete([3, 2]))
states = jax.random.normal(jax.random.PRNGKey(2), (8, 4))
calls = 0
try:  # scaffolding
    actions, log_prob, _ = policy.act({"states": states}, role="policy")
    for _ in range(3):
        loss, grad = _update_policy(policy.act, policy.state_dict.params, states, actions, log_prob)
        calls += 1
    _report({"jit(_update_policy)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
