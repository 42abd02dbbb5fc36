# source: https://github.com/mlaux1/rl-blox/pull/47
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: nnx.jit(set_params) writes the flat parameter vector into the policy with an in-place nnx.update; nnx.jit propagates the mutation, compiles once and the update persists across 4 calls.

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
import jax.numpy as jnp
import numpy as np
from flax import nnx


class MLP(nnx.Module):  # scaffolding: stand-in for rl_blox.blox.function_approximator.mlp.MLP
    def __init__(self, n_in, n_out, rngs):  # scaffolding
        self.l1 = nnx.Linear(n_in, 8, rngs=rngs)  # scaffolding
        self.l2 = nnx.Linear(8, n_out, rngs=rngs)  # scaffolding

    def __call__(self, x):  # scaffolding
        return self.l2(jnp.tanh(self.l1(x)))  # scaffolding


# --- rl_blox/algorithm/cmaes.py ---
@nnx.jit
def flat_params(net: nnx.Module):
    """Return parameters of a neural net as flat parameter vector."""
    state = nnx.state(net, nnx.Param)
    leaves = jax.tree_util.tree_leaves(state)
    flat_leaves = list(map(lambda x: x.ravel(), leaves))
    return jnp.concatenate(flat_leaves, axis=0)


@nnx.jit
def set_params(net: nnx.Module, params: jnp.ndarray):
    """Set parameters of a neural net (inplace) from a flat parameter vector."""
    state = nnx.state(net, nnx.Param)
    leaves = jax.tree_util.tree_leaves(state)
    treedef = jax.tree_util.tree_structure(state)
    n_params_set = 0
    new_leaves = []
    for leaf in leaves:
        n_params_leaf = np.prod(leaf.shape)
        new_leaf = params[n_params_set : n_params_set + n_params_leaf].reshape(
            leaf.shape
        )
        new_leaves.append(new_leaf)
        n_params_set += n_params_leaf
    state = jax.tree_util.tree_unflatten(treedef, new_leaves)
    nnx.update(net, state)


def train_cmaes(policy, total_episodes, seed=0):  # scaffolding: train_cmaes cut down, the CMA-ES update is left out
    init_params = flat_params(policy)
    rng = np.random.default_rng(seed)  # scaffolding

    @nnx.jit
    def policy_action(policy, observation):
        return policy(observation)

    obs = np.zeros(3, dtype=np.float32)  # scaffolding: env.reset(seed=seed)
    for _ in range(total_episodes):
        candidate = init_params + 0.1 * jnp.asarray(rng.normal(size=init_params.shape), jnp.float32)  # scaffolding: get_next_parameters
        set_params(policy, candidate)
        assert jnp.allclose(flat_params(policy), candidate)  # scaffolding: the in-place update inside nnx.jit is kept
        for t in range(3):  # scaffolding: episode of 3 steps
            action = np.asarray(policy_action(policy, jnp.asarray(obs)))
            obs = obs + 0.1 * action.sum()  # scaffolding: env.step
    return policy


policy = MLP(3, 2, nnx.Rngs(0))  # scaffolding
train_cmaes(policy, total_episodes=4)  # scaffolding
_report({"jit(set_params)"}, 4)  # scaffolding
