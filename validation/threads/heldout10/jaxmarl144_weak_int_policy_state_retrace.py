# source: https://github.com/bold-lab-ai/JaxMARL/issues/144
# expect: shape-churn at line 51
# runtime: COMPILES 2 CALLS 2
# why: The heuristic enemy's initial policy state stores last_attacked_enemy as the Python int -1 (a weakly typed int32 leaf), but after one step it holds the strongly typed int32 output of jax.lax.select; a jitted function taking the state therefore traces and compiles twice, once for the reset state and once for every stepped state.

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
from typing import Union

import jax
import jax.numpy as jnp
from flax.struct import dataclass


@dataclass
class HeuristicPolicyState:
    default_target: jax.Array  # the place we are headed for
    last_attacked_enemy: Union[
        int, jax.Array
    ]  # needed to remember where we attacked last

    def __eq__(self, other):
        return jnp.all(other.default_target == self.default_target) & (
            other.last_attacked_enemy == self.last_attacked_enemy
        )


def get_heuristic_policy_initial_state():
    return HeuristicPolicyState(
        default_target=jnp.array([0.0, 0.0]), last_attacked_enemy=-1
    )


def policy_step(state, shootable_enemy_mask, new_attack_action, num_move_actions=5):  # scaffolding: trimmed get_heuristic_action
    # Want to keep attacking the same enemy until it is dead.
    attack_action = jax.lax.select(
        (state.last_attacked_enemy != -1)
        & shootable_enemy_mask[state.last_attacked_enemy],
        state.last_attacked_enemy + num_move_actions,
        new_attack_action,
    )
    attacked_idx = attack_action - num_move_actions
    state = state.replace(
        last_attacked_enemy=jax.lax.select(
            shootable_enemy_mask[attacked_idx], attacked_idx, -1
        )
    )
    return state


state_init = get_heuristic_policy_initial_state()  # scaffolding: stands in for env.reset(key)
state = policy_step(state_init, jnp.array([True, False, True]), jnp.int32(5))  # scaffolding: stands in for env.step(...)

print(jax.tree.map(lambda x: jnp.asarray(x).aval, state_init))  # jnp.asarray added: the Python int leaf has no .aval
print(jax.tree.map(lambda x: x.aval, state))

@jax.jit
def f(x):
    print('tracing')

f(state_init)
f(state)
_report({"jit(f)"}, 2)  # scaffolding
