# source: https://github.com/google/brax/issues/300
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The suggested reset threads its PRNG key through a jitted function that closes over a constant mocap table; re-wrapping the same reset with jax.jit each episode reuses the cached compile and samples a new clip each time.
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
# google/brax issue #300: the maintainer's suggestion for a random-clip reset (brax.jumpy as jp)
import jax
import jax.numpy as jp  # scaffolding: brax.jumpy (jp.ones / jp.arange) is not installed; jax.numpy has the same calls

mocap = jp.ones((10, 3)) * jp.arange(0, 10)[:, None]  # load this once
rng = jax.random.PRNGKey(0)

def reset(rng):
  rng, key = jax.random.split(rng, 2)
  return rng, jax.random.choice(key, mocap, (1,))

clips = []  # scaffolding
for episode in range(3):  # scaffolding: one reset per episode
  rng, val = jax.jit(reset)(rng)
  clips.append(val)  # scaffolding
print("clips differ:", not all(bool((c == clips[0]).all()) for c in clips))  # scaffolding
_report({"jit(reset)"}, 3)  # scaffolding
