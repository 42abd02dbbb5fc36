# source: https://github.com/patrick-kidger/equinox/issues/987
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the actor is split with eqx.partition(actor, eqx.is_array); only the array leaves ride in the scan carry and the static part (with the bool inference flag) is closed over and recombined inside the step, so the rollout traces and compiles once for three rollouts.

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import equinox as eqx  # scaffolding


class Actor(eqx.Module):  # scaffolding: stand-in for the reporter's actor network with a dropout layer
    lin: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __init__(self, key):
        self.lin = eqx.nn.Linear(4, 2, key=key)
        self.dropout = eqx.nn.Dropout(0.1)

    def __call__(self, x, key):
        return self.dropout(self.lin(x), key=key)


actor = Actor(jax.random.PRNGKey(0))  # scaffolding
actor_params, actor_static = eqx.partition(actor, eqx.is_array)


def _env_step(runner_state, unused):  # scaffolding: stand-in rollout step
    params, obs, key = runner_state
    actor = eqx.combine(params, actor_static)
    key, sub = jax.random.split(key)
    out = actor(obs, sub)
    return (params, obs + out.sum(), key), out


class config:  # scaffolding
    num_steps = 5


_scan = jax.jit(lambda rs: jax.lax.scan(_env_step, rs, None, config.num_steps))  # scaffolding: jitted so the compile is counted

runner_state = (actor_params, jnp.ones(4), jax.random.PRNGKey(1))  # scaffolding
calls = 0  # scaffolding
for _ in range(3):  # scaffolding
    # Do rollout of single trajactory
    runner_state, trajectory_batch = _scan(runner_state)
    calls += 1  # scaffolding
_report({"jit(<lambda>)"}, calls)  # scaffolding
