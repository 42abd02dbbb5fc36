# source: https://github.com/xqz-u/dopamine/commit/000c9db48fb970370b8968c0aaa8e370d0a6dc53
# expect: unhashable-static at line 250
# runtime: ERROR ValueError
# why: egreedy marks epsilon_train (index 2) static, but egreedy_linear_decay passes it the jax Array returned by the jitted linearly_decaying_epsilon, so jit raises ValueError (non-hashable static argument) on the first action selection.
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



import functools as ft
import types  # scaffolding
from dataclasses import dataclass
from typing import Dict, Sequence, Tuple, Union

import jax
import optax
from flax import linen as nn
from flax.core.frozen_dict import FrozenDict
from jax import numpy as jnp
from jax import random as jrand
from jax import tree_util

jrand.KeyArray = jax.Array  # scaffolding: jax.random.KeyArray (used in annotations) is gone from jax
jnp.DeviceArray = jax.Array  # scaffolding: jax.numpy.DeviceArray (used in annotations) is gone from jax


# dopamine/thesis/jax/networks.py
class Sequential(nn.Module):
    layers: Sequence[nn.Module]

    def __call__(self, x) -> jnp.DeviceArray:
        for layer in self.layers:
            x = layer(x)
        return x

    # TODO use some library function or such!
    def __hash__(self) -> int:
        return hash(".".join((str(hash(l)) for l in self.layers)))


# NOTE setting _min_vals and _max_vals because of
# https://flax.readthedocs.io/en/latest/flax.errors.html#flax.errors.SetAttributeInModuleSetupError
class DensePreproc(nn.Dense):
    min_vals: Union[None, Tuple[float, ...]] = None
    max_vals: Union[None, Tuple[float, ...]] = None
    inputs_preprocessed: bool = False

    def setup(self):
        if self.min_vals is not None:
            assert self.max_vals is not None
            self._min_vals = jnp.array(self.min_vals)
            self._max_vals = jnp.array(self.max_vals)

    def __call__(self, x) -> jnp.DeviceArray:
        if not self.inputs_preprocessed:
            x = x.reshape((-1))  # flatten
            if self.min_vals is not None:
                x -= self._min_vals
                x /= self._max_vals - self._min_vals
                x = 2.0 * x - 1.0  # Rescale in range [-1, 1].
        return super().__call__(x)


def mlp(
    output_dim: int,
    hiddens: Sequence[int] = [],
    activation_fn: callable = nn.relu,
    **dense_kwargs
) -> Sequential:
    return Sequential(
        [
            *[
                v
                for tup in zip(
                    [
                        DensePreproc(features=out_feat, **dense_kwargs)
                        for out_feat in hiddens
                    ],
                    [activation_fn] * len(hiddens),
                )
                for v in tup
            ],
            DensePreproc(features=output_dim, **dense_kwargs),
        ]
    )


networks = types.SimpleNamespace(Sequential=Sequential, mlp=mlp)  # scaffolding: module stand-in


# dopamine/thesis/custom_pytrees.py
@tree_util.register_pytree_node_class
@dataclass
class NetworkOptimWrap:
    net: nn.Module = networks.Sequential
    optim: optax.GradientTransformation = optax.sgd
    # params: Union[FrozenDict, Dict[str, FrozenDict]] = None
    params: Dict[str, FrozenDict] = None
    opt_state: optax.OptState = None

    def tree_flatten(self) -> tuple:
        return ((self.params, self.opt_state), (self.net, self.optim))

    @classmethod
    def tree_unflatten(cls, treedef, leaves):
        return cls(*treedef, *leaves)


# NOTE if using a dataclass, this happens:
# TypeError: __init__() takes from 1 to 4 positional arguments but 5 were given
@tree_util.register_pytree_node_class
@dataclass
class PRNGKeyWrap:
    def __init__(
        self,
        seed: int = 42,
        key: jrand.KeyArray = None,
        n_splits: int = 0,
        _stop_seed_assign=None,
    ):
        self.key = key
        self.seed = seed
        self._stop_seed_assign = _stop_seed_assign
        self.n_splits = n_splits
        if self.key is None:
            self.key = jrand.PRNGKey(self.seed)
        # NOTE _stop_seed_assign exists because the next statement
        # would otherwise be executed on each call to next() because
        # of how custom PyTrees work
        elif self._stop_seed_assign is None:
            self.seed = self.key[1].astype(int)

    def __next__(self) -> jrand.KeyArray:
        self.key, sk = jrand.split(self.key)
        self.n_splits += 1
        if self._stop_seed_assign is None:
            self._stop_seed_assign = 1
        return sk

    def __repr__(self) -> str:
        return f"<seed: {self.seed} #splits: {self.n_splits} key: {self.key}>"

    def tree_flatten(self) -> tuple:
        return ((self.seed, self.key, self.n_splits, self._stop_seed_assign), None)

    @classmethod
    def tree_unflatten(cls, _, leaves):
        return cls(*leaves)


custom_pytrees = types.SimpleNamespace(NetworkOptimWrap=NetworkOptimWrap, PRNGKeyWrap=PRNGKeyWrap)  # scaffolding: module stand-in


# dopamine/thesis/dqv.py
def build_net(
    out_dim: int,
    inp_shape: Tuple[int],
    key: custom_pytrees.PRNGKeyWrap,
    net_class: nn.Module = networks.mlp,
    **kwargs,
) -> Tuple[nn.Module, FrozenDict]:
    net = net_class(output_dim=out_dim, **kwargs)
    params = net.init(next(key), jnp.ones(inp_shape))
    return net, params


def build_optim(
    params: FrozenDict, optim_class: optax.GradientTransformation = optax.sgd, **kwargs
) -> Tuple[optax.GradientTransformation, optax.OptState]:
    optim = optim_class(**kwargs)
    optim_state = optim.init(params)
    return optim, optim_state


# dopamine/thesis/jax/exploration.py before the commit


# NOTE taken from dopamine.jax.agents.dqn.dqn_agent
@ft.partial(jax.jit, static_argnums=(0, 2, 3))
def linearly_decaying_epsilon(
    decay_period: int, training_steps: int, warmup_steps: int, epsilon_target: float
) -> jnp.DeviceArray:
    steps_left = decay_period + warmup_steps - training_steps
    bonus = (1.0 - epsilon_target) * steps_left / decay_period
    bonus = jnp.clip(bonus, 0.0, 1.0 - epsilon_target)
    return epsilon_target + bonus


# TODO need an intermediate version with kwargs to have defaults
# in the config
@ft.partial(jax.jit, static_argnums=(0, 1, 2, 3))
def egreedy(
    num_actions: int,
    eval_mode: bool,
    epsilon_train: float,
    epsilon_eval: float,
    state: jnp.DeviceArray,
    qnet: custom_pytrees.NetworkOptimWrap,
    rng: custom_pytrees.PRNGKeyWrap,
) -> Tuple[custom_pytrees.PRNGKeyWrap, jnp.DeviceArray]:
    epsilon = epsilon_train if not eval_mode else epsilon_eval
    return rng, jnp.where(
        jrand.uniform(next(rng)) <= epsilon,
        jrand.randint(next(rng), (), 0, num_actions),
        jnp.argmax(qnet.net.apply(qnet.params["online"], state)),
    )


# TODO rewrite, when using linear decay on epsilon it cannot be marked
# as static_argnum by jitted functions, since it will always be
# different until decay_period has occurred -> a lot of useless caching!
# NOTE it would be better to specify only the args required by
# `linearly_decaying_epsilon` here, and pass the base egreedy args like
# **base_egreedy. This is not supported by thesis.utils.argfinder though
def egreedy_linear_decay(
    training_steps: int = None,
    decay_period: int = 250000,
    warmup_steps: int = 500,
    qnet: custom_pytrees.NetworkOptimWrap = None,
    rng: custom_pytrees.PRNGKeyWrap = None,
    num_actions: int = None,
    eval_mode: bool = False,
    epsilon_train: float = 0.01,
    epsilon_eval: float = 0.01,
    state: jnp.DeviceArray = None,
) -> jnp.DeviceArray:
    if not eval_mode:
        epsilon_train = linearly_decaying_epsilon(
            decay_period, training_steps, warmup_steps, epsilon_train
        )

    return egreedy(
        num_actions, eval_mode, epsilon_train, epsilon_eval, state, qnet, rng
    )


# NOTE not passing the whole custom_pytrees.NetworkOptimWrap here
# since this function only needs net and params
# @ft.partial(jax.jit, static_argnums=(0, 1, 2, 3, 4))
# def egreedy(
#     net: nn.Module,
#     num_actions: int,
#     eval_mode: bool,
#     epsilon_train: float,
#     epsilon_eval: float,
#     rng: custom_pytrees.PRNGKeyWrap,
#     params: FrozenDict,
#     state: jnp.DeviceArray,
# ) -> jnp.DeviceArray:
#     epsilon = epsilon_train if not eval_mode else epsilon_eval
#     return rng, jnp.where(
#         jrand.uniform(next(rng)) <= epsilon,
#         jrand.randint(next(rng), (), 0, num_actions),
#         jnp.argmax(net.apply(params, state)),
#     )


# scaffolding below: DQVMaxAgent.select_action / build_networks_and_optimizers cut to the calls they make
rng = custom_pytrees.PRNGKeyWrap()  # scaffolding
net, params = build_net(2, (4,), rng)  # scaffolding
optim, optim_state = build_optim(params, learning_rate=0.05)  # scaffolding
qnet = custom_pytrees.NetworkOptimWrap(net, optim, {"online": params, "target": params}, optim_state)  # scaffolding
state = jnp.ones((4,))  # scaffolding
conf_exploration = {"decay_period": 100, "warmup_steps": 800, "epsilon_train": 0.02}  # scaffolding: the commented-out config of dqv.py
try:  # scaffolding
    for training_steps in range(4):  # scaffolding
        rng, action = egreedy_linear_decay(**conf_exploration, training_steps=training_steps, qnet=qnet, rng=rng, num_actions=2, state=state)  # scaffolding
    _report({"jit(egreedy)", "jit(linearly_decaying_epsilon)"}, 8)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
