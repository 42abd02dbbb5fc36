# source: https://github.com/jax-ml/jax/issues/3654
# expect: trace-time-error at line 35
# runtime: ERROR ConcretizationTypeError
# why: num_actions reaches the jitted step as an ordinary traced argument, and jax.nn.one_hot needs a concrete num_classes to build its output shape, so tracing fails.

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


@jax.jit  # scaffolding: the reporter's step is jitted with num_actions as a plain argument
def train_step(replay_elements, num_actions):  # scaffolding
    replay_action_one_hot = jax.nn.one_hot(replay_elements['action'], num_actions)
    return replay_action_one_hot.sum()  # scaffolding


replay_elements = {'action': jnp.arange(128) % 4}  # scaffolding
num_actions = 4  # scaffolding
try:  # scaffolding
    train_step(replay_elements, num_actions)  # scaffolding
    _report({"jit(train_step)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
