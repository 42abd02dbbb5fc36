# source: https://github.com/jax-ml/jax/issues/3654
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The fix the thread's error message points to: num_actions is a static argument, so one_hot sees a Python int and the step compiles once for the four batches.

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
from functools import partial  # scaffolding

import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


@partial(jax.jit, static_argnums=(1,))  # scaffolding: the static_argnums fix
def train_step(replay_elements, num_actions):  # scaffolding
    replay_action_one_hot = jax.nn.one_hot(replay_elements['action'], num_actions)
    return replay_action_one_hot.sum()  # scaffolding


num_actions = 4  # scaffolding
for i in range(4):  # scaffolding
    replay_elements = {'action': (jnp.arange(128) + i) % 4}  # scaffolding
    train_step(replay_elements, num_actions)  # scaffolding
_report({"jit(train_step)"}, 4)  # scaffolding
