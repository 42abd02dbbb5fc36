# source: https://github.com/google-deepmind/mujoco_playground/commit/27f505fb622d586ec5441c9a0f3803e4c743d9e1
# expect: shape-churn at line 127
# runtime: COMPILES 2 CALLS 10
# why: The commit's fix time=jp.array(0.0) is still weakly typed on jax 0.10.2 (jnp.array of a Python float keeps the weak type), so the second jitted step still recompiles.

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


from typing import Any, Dict

import jax
import jax.numpy as jp
from flax import struct


# scaffolding: mujoco/mjx are not installed; a tiny stand-in for mjx.Model, mjx.Data and mjx.step
@struct.dataclass
class _Opt:
  timestep: jax.Array


@struct.dataclass
class _MjxModel:
  opt: _Opt
  nq: int = struct.field(pytree_node=False, default=9)
  nu: int = struct.field(pytree_node=False, default=6)


@struct.dataclass
class _MjxData:
  qpos: jax.Array
  qvel: jax.Array
  ctrl: jax.Array
  time: jax.Array


class mjx:  # scaffolding
  @staticmethod
  def step(model, data):
    qvel = data.qvel.at[3:].add(model.opt.timestep * (data.ctrl - 0.1 * data.qvel[3:]))
    qpos = data.qpos + model.opt.timestep * qvel
    return data.replace(qpos=qpos, qvel=qvel, time=data.time + model.opt.timestep)

  @staticmethod
  def forward(model, data):
    return data


# mujoco_playground/_src/mjx_env.py
def step(
    model,
    data,
    action: jax.Array,
    n_substeps: int = 1,
):
  def single_step(data, _):
    data = data.replace(ctrl=action)
    data = mjx.step(model, data)
    return data, None

  return jax.lax.scan(single_step, data, (), n_substeps)[0]


@struct.dataclass
class State:
  """Environment state for training and inference."""

  data: Any
  obs: jax.Array
  reward: jax.Array
  done: jax.Array
  metrics: Dict[str, jax.Array]
  info: Dict[str, Any]


class mjx_env:  # scaffolding: the module namespace used by cheetah.py
  step = staticmethod(step)
  State = State


# mujoco_playground/_src/dm_control_suite/cheetah.py after the commit (reset and step of Run)
class Run:
  def __init__(self):  # scaffolding: model loading replaced by the stand-in model
    self.mjx_model = _MjxModel(opt=_Opt(timestep=jp.array(0.01, jp.float32)))
    self.n_substeps = 1
    self._lowers = -jp.ones(6)
    self._uppers = jp.ones(6)

  def reset(self, rng: jax.Array) -> mjx_env.State:
    rng, rng1 = jax.random.split(rng, 2)

    qpos = jp.zeros(self.mjx_model.nq)
    qpos = qpos.at[3:].set(
        jax.random.uniform(
            rng1,
            (self.mjx_model.nq - 3,),
            minval=self._lowers,
            maxval=self._uppers,
        )
    )

    data = _MjxData(qpos=qpos, qvel=jp.zeros(self.mjx_model.nq), ctrl=jp.zeros(self.mjx_model.nu),
                    time=jp.zeros((), jp.float32))  # scaffolding: mjx_env.make_data
    data = mjx.forward(self.mjx_model, data)

    # Stabilize.
    data = mjx_env.step(self.mjx_model, data, jp.zeros(self.mjx_model.nu), 200)
    data = data.replace(time=jp.array(0.0))

    metrics = {}
    info = {"rng": rng}

    reward, done = jp.zeros(2)  # pylint: disable=redefined-outer-name
    obs = self._get_obs(data, info)
    return mjx_env.State(data, obs, reward, done, metrics, info)

  def step(self, state: mjx_env.State, action: jax.Array) -> mjx_env.State:
    data = mjx_env.step(self.mjx_model, state.data, action, self.n_substeps)
    reward = self._get_reward(data, action, state.info, state.metrics)  # pylint: disable=redefined-outer-name
    obs = self._get_obs(data, state.info)
    done = jp.isnan(data.qpos).any() | jp.isnan(data.qvel).any()
    done = done.astype(float)
    return mjx_env.State(data, obs, reward, done, state.metrics, state.info)

  def _get_obs(self, data, info: dict[str, Any]) -> jax.Array:
    del info  # Unused.
    return jp.concatenate([
        data.qpos[1:],
        data.qvel,
    ])

  def _get_reward(self, data, action, info, metrics) -> jax.Array:  # scaffolding: sensor and reward.tolerance stand-in
    del action, info, metrics  # Unused.
    return jp.clip(data.qvel[0] / 10.0, 0.0, 1.0)


# scaffolding: the rollout of the playground notebooks, jit(env.reset) then jit(env.step) in a Python loop
env = Run()
jit_reset = jax.jit(env.reset)
jit_step = jax.jit(env.step)
state = jit_reset(jax.random.PRNGKey(0))
print("time after reset:", jax.typeof(state.data.time))  # scaffolding: ~ marks a weak type
calls = 0
key = jax.random.PRNGKey(1)
for i in range(10):
  key, act_key = jax.random.split(key)
  action = jax.random.uniform(act_key, (env.mjx_model.nu,), minval=-1.0, maxval=1.0)  # a random policy
  state = jit_step(state, action)
  calls += 1
_report({"jit(step)"}, calls)
