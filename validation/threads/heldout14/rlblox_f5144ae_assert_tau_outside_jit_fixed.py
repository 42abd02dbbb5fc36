# source: https://github.com/mlaux1/rl-blox/commit/f5144ae
# expect: none
# runtime: COMPILES 2 CALLS 8
# why: The commit's fix: the range check on tau runs once in the training function on the Python float, and the jitted target update only does the Polyak average; it compiles once per network structure (two networks, two compiles for eight calls).

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
import chex
import optax
from flax import nnx


@nnx.jit
def soft_target_net_update(
    net: nnx.Module, target_net: nnx.Module, tau: float
) -> None:
    r"""Inplace soft update for target network with Polyak averaging.

    Update formula:

    .. math::

        \theta' \leftarrow \tau \theta + (1 - \tau) \theta'
    """
    params = nnx.state(net)
    target_params = nnx.state(target_net)
    target_params = optax.incremental_update(params, target_params, tau)
    nnx.update(target_net, target_params)


def train_ddpg(policy, policy_target, q, q_target, tau=0.005, total_timesteps=4):
    # scaffolding: the target-update part of rl_blox.algorithm.ddpg.train_ddpg
    # (environment, replay buffer and the actor/critic updates omitted)
    chex.assert_scalar_in(tau, 0.0, 1.0)
    calls = 0
    for global_step in range(total_timesteps):
        soft_target_net_update(policy, policy_target, tau)
        soft_target_net_update(q, q_target, tau)
        calls += 2
    return calls


# scaffolding: small policy and Q networks with their targets
policy = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
policy_target = nnx.Linear(3, 1, rngs=nnx.Rngs(1))
q = nnx.Linear(4, 1, rngs=nnx.Rngs(2))
q_target = nnx.Linear(4, 1, rngs=nnx.Rngs(3))
try:
    calls = train_ddpg(policy, policy_target, q, q_target)
    _report({"jit(soft_target_net_update)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
