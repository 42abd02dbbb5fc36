# source: https://github.com/google-deepmind/mujoco/issues/2306
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: Promoting time to a strongly typed float32 before the first call (the work-around line) makes the jitted step compile once.

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
import jax.numpy as jnp
from flax import struct


# scaffolding: mujoco-mjx is not installed; Data and step stand in for mjx.Data / mjx.step with the
# one property the issue is about: put_data creates `time` as a weakly typed scalar, and step
# returns it as a strongly typed float32.
@struct.dataclass
class Data:
    time: jax.Array
    qpos: jax.Array
    qvel: jax.Array


def put_data(qpos):
    return Data(time=jnp.asarray(0.0), qpos=qpos, qvel=jnp.zeros_like(qpos))  # weak-typed time


def step(model_dt, d):
    qvel = d.qvel - model_dt * d.qpos
    return d.replace(time=d.time + jnp.float32(model_dt), qpos=d.qpos + model_dt * qvel, qvel=qvel)


mjx_data = put_data(jnp.ones(3))
jit_step = jax.jit(step, static_argnums=0)
# the work-around: promote time to a strong type before the first call
mjx_data = mjx_data.replace(time=jnp.asarray(mjx_data.time, dtype=jnp.float32))
calls = 0
for i in range(3):
    mjx_data = jit_step(0.01, mjx_data)
    calls += 1
_report({"jit(step)"}, calls)
