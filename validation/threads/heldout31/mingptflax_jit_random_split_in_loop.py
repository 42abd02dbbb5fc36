# source: https://github.com/brentyi/minGPT-flax/blob/7927b564e04b929e4df219a9334d86de9486dfb0/train_char.py
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: The training loop re-wraps `jax.jit(jax.random.split, static_argnums=1)` for every minibatch, but it wraps the same module-level function with the same static device_count each time, so the jit cache is hit and it compiles once.

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
import jax


class ShardedTrainState:  # scaffolding: stand-in for the jax_dataclasses train state
    def __init__(self, prng_key):
        self.prng_key = prng_key


devices = jax.devices()
device_count = len(devices)
sharded_train_state = ShardedTrainState(jax.random.split(jax.random.PRNGKey(0), device_count))
minibatches = range(6)  # scaffolding: stand-in for fifteen's sharded minibatch iterator

for minibatch in minibatches:
    # Give each device a different PRNG key; this makes dropout masks unique.
    # Placing this inside of the training loops results in all PRNG keys
    # depending only on splits happening on device #0, which is nice for making
    # sure that training states can be predictably loaded from checkpoints and
    # used to continue or re-run training.
    sharded_train_state.prng_key = jax.jit(  # (was: inside jdc.copy_and_mutate(sharded_train_state))
        jax.random.split, static_argnums=1
    )(sharded_train_state.prng_key[0], device_count)

_report({"jit(split)"}, len(minibatches))
