# source: https://github.com/Jesperoka/robust_rl/blob/74511824185a9fd6b5718053b3e203ae154a5070/inference/real.py
# expect: jit-in-loop-or-body at line 147
# runtime: COMPILES 6 CALLS 5
# why: The real-robot control loop calls jit(env.compute_controls)(...) on every iteration; each access creates a new bound method, so the wrapper misses the cache and compute_controls is recompiled every step (jit(policy_inference, static_argnums=0), also rebuilt in the loop a few lines earlier, wraps a module-level function and hits the cache).

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

from typing import NamedTuple

import numpy as np
import jax
import jax.numpy as jnp
import optax
from jax import jit
from jax.tree_util import tree_map  # (the 2024 code imported jax.tree_map, removed since)
from flax.training.train_state import TrainState


class ActorInput(NamedTuple):  # (algorithms.utils.ActorInput)
    obs: jax.Array
    done: jax.Array


class _Policy:  # scaffolding: stands in for the distrax policy returned by the actor network
    def __init__(self, mean):
        self.mean = mean

    def mode(self):
        return self.mean


def _actor_apply(variables, hs, inputs, train=False):  # scaffolding: stands in for the RNN actor's apply_fn
    mean = jnp.tanh(inputs.obs @ variables["params"]["w"])
    return hs, _Policy(mean)


class Actors(NamedTuple):  # scaffolding: stands in for the restored actors of initialize_actors()
    train_states: tuple
    vars: tuple


class _Env:  # scaffolding: stands in for environments.A_to_B_jax.A_to_B (MuJoCo MJX)
    act_low, act_high = -jnp.ones(5), jnp.ones(5)

    def decode_observation(self, observation):
        return observation[0:3], observation[3:6]

    def scale_action(self, action, low, high):
        return low + 0.5 * (action + 1.0) * (high - low)

    def decode_action(self, action):
        return action[0:3], action[3:3], action[3]

    def arm_ctrl(self, observation, a_arm):
        return jnp.zeros(7)

    def gripper_ctrl(self, a_gripper):
        return jnp.array([a_gripper])

    def car_ctrl(self, observation, a_car):
        return a_car

    def car_local_polar_to_global_cartesian(self, orientation, magnitude, angle, omega):
        return jnp.array([magnitude * jnp.cos(angle - orientation), magnitude * jnp.sin(angle - orientation), omega])

    def compute_controls(self, car_orientation, observation, action):
        action = self.scale_action(action, self.act_low, self.act_high)
        a_car, a_arm, a_gripper = self.decode_action(action)

        ctrl_arm = self.arm_ctrl(observation, a_arm)
        ctrl_gripper = self.gripper_ctrl(a_gripper)

        car_local_ctrl = self.car_ctrl(observation, a_car)
        ctrl_car = self.car_local_polar_to_global_cartesian(car_orientation, car_local_ctrl[0], car_local_ctrl[1], car_local_ctrl[2])

        ctrl = jnp.concatenate([ctrl_car, ctrl_arm, ctrl_gripper], axis=0)

        return ctrl


def policy_inference(num_agents, actors, actor_hidden_states, observation, done):
    inputs = tuple(
            ActorInput(observation[np.newaxis, :][np.newaxis, :], done[np.newaxis, :])
            for _ in range(num_agents)
    )

    _, policies = zip(*tree_map(
        lambda ts, vars, hs, inputs: ts.apply_fn({"params": ts.params, "vars": vars}, hs, inputs, train=False),
            actors.train_states,
            actors.vars,
            actor_hidden_states,
            inputs,
        is_leaf=lambda x: not isinstance(x, tuple) or isinstance(x, ActorInput)
    ))
    actions = tree_map(lambda policy: policy.mode().squeeze(), policies, is_leaf=lambda x: not isinstance(x, tuple))

    return actions, actor_hidden_states


def observe(step):  # scaffolding: stands in for the april-tag camera observation
    return np.random.default_rng(step).normal(size=12).astype(np.float32), None


env = _Env()  # scaffolding
num_agents = 2
actors = Actors(  # scaffolding: two small actors (car: 3 outputs, arm/gripper: 2 outputs)
    train_states=tuple(TrainState.create(apply_fn=_actor_apply, params={"w": jnp.zeros((12, n))}, tx=optax.sgd(0.1))
                       for n in (3, 2)),
    vars=({}, {}),
)
actor_hidden_states = (jnp.zeros((1, 8)), jnp.zeros((1, 8)))

step = 0
done = False
while not done:  # (the body of loop_body() in inference/real.py)
    observation, aux = observe(step)
    (q_car, qd_car) = env.decode_observation(observation)

    terminal = np.array([False])
    actions, actor_hidden_states = jit(policy_inference, static_argnums=0)(num_agents, actors, actor_hidden_states, observation, terminal)
    action = np.concatenate(actions, axis=-1)

    car_orientation = q_car[2]

    ctrl = jit(env.compute_controls)(car_orientation, observation, action)

    car_command = {"A": float(ctrl[0]), "B": float(ctrl[1]), "C": float(ctrl[2]), "D": 1}
    step += 1  # scaffolding
    done = step >= 5  # scaffolding: the real loop runs until the goal is reached

_report({"jit(compute_controls)", "jit(policy_inference)"}, 5)
