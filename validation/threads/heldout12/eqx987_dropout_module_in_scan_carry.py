# source: https://github.com/patrick-kidger/equinox/issues/987
# expect: trace-time-error at line 60
# runtime: ERROR TracerBoolConversionError
# why: the whole actor Module, including eqx.nn.Dropout's non-array bool field inference, is put in the lax.scan carry, so scan turns inference into a traced bool and Dropout's `if inference:` raises while tracing the step.

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


def _env_step(runner_state, unused):  # scaffolding: stand-in rollout step
    actor, obs, key = runner_state
    key, sub = jax.random.split(key)
    out = actor(obs, sub)
    return (actor, obs + out.sum(), key), out


class config:  # scaffolding
    num_steps = 5


runner_state = (Actor(jax.random.PRNGKey(0)), jnp.ones(4), jax.random.PRNGKey(1))  # scaffolding
try:  # scaffolding
    # Do rollout of single trajactory
    runner_state, trajectory_batch = jax.lax.scan(
        _env_step, runner_state, None, config.num_steps
    )
    print(trajectory_batch.shape)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
