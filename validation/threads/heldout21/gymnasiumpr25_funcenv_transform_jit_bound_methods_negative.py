# source: https://github.com/Farama-Foundation/Gymnasium/pull/25
# expect: none
# runtime: COMPILES 5 CALLS 41
# why: FuncEnv.transform(jax.jit) wraps each bound method once and stores the wrapper on the instance, so over a 10-step rollout initial, observation, transition, reward and terminal compile once each (5 compiles for 41 calls); the class constants are baked in but never change.
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
# Farama-Foundation/Gymnasium PR #25 (ff5656463): gymnasium/functional.py FuncEnv.transform, gymnasium/envs/phys2d/cartpole.py CartPoleF, tests/envs/functional/test_jax.py test_jit
from typing import Callable, Optional, Tuple, Union

import jax
import jax.numpy as jnp
import jax.random as jrng
import numpy as np
from jax.random import PRNGKey

StateType = ActType = object  # scaffolding: gymnasium.functional type variables
RenderStateType = object  # scaffolding


class gym:  # scaffolding: gymnasium.spaces stand-ins (gymnasium not installed)
    class spaces:
        class Box:
            def __init__(self, low, high, shape, dtype):
                self.shape = shape

        class Discrete:
            def __init__(self, n):
                self.n = n
                self._rng = np.random.default_rng()

            def seed(self, seed):
                self._rng = np.random.default_rng(seed)

            def sample(self):
                return np.int64(self._rng.integers(self.n))


class FuncEnv:  # gymnasium/functional.py, cut to what test_jit uses
    def state_info(self, state):  # scaffolding: default
        return {}

    def step_info(self, state, action, next_state):  # scaffolding: default
        return {}

    def transform(self, func: Callable[[Callable], Callable]):
        """Functional transformations."""
        self.initial = func(self.initial)
        self.transition = func(self.transition)
        self.observation = func(self.observation)
        self.reward = func(self.reward)
        self.terminal = func(self.terminal)
        self.state_info = func(self.state_info)
        self.step_info = func(self.step_info)


class CartPoleF(FuncEnv):  # generic parameters dropped (scaffolding)
    """Cartpole but in jax and functional.

    Example usage:
    ```
    import jax
    import jax.numpy as jnp

    key = jax.random.PRNGKey(0)

    env = CartPole({"x_init": 0.5})
    state = env.initial(key)
    print(state)
    print(env.step(state, 0))

    env.transform(jax.jit)

    state = env.initial(key)
    print(state)
    print(env.step(state, 0))

    vkey = jax.random.split(key, 10)
    env.transform(jax.vmap)
    vstate = env.initial(vkey)
    print(vstate)
    print(env.step(vstate, jnp.array([0 for _ in range(10)])))
    ```
    """

    gravity = 9.8
    masscart = 1.0
    masspole = 0.1
    total_mass = masspole + masscart
    length = 0.5
    polemass_length = masspole + length
    force_mag = 10.0
    tau = 0.02
    theta_threshold_radians = 12 * 2 * np.pi / 360
    x_threshold = 2.4
    x_init = 0.05

    screen_width = 600
    screen_height = 400

    observation_space = gym.spaces.Box(-np.inf, np.inf, shape=(4,), dtype=np.float32)
    action_space = gym.spaces.Discrete(2)

    def initial(self, rng: PRNGKey):
        """Initial state generation."""
        return jax.random.uniform(
            key=rng, minval=-self.x_init, maxval=self.x_init, shape=(4,)
        )

    def transition(
        self, state: jnp.ndarray, action: Union[int, jnp.ndarray], rng: None = None
    ) -> StateType:
        """Cartpole transition."""
        x, x_dot, theta, theta_dot = state
        force = jnp.sign(action - 0.5) * self.force_mag
        costheta = jnp.cos(theta)
        sintheta = jnp.sin(theta)

        # For the interested reader:
        # https://coneural.org/florian/papers/05_cart_pole.pdf
        temp = (
            force + self.polemass_length * theta_dot**2 * sintheta
        ) / self.total_mass
        thetaacc = (self.gravity * sintheta - costheta * temp) / (
            self.length * (4.0 / 3.0 - self.masspole * costheta**2 / self.total_mass)
        )
        xacc = temp - self.polemass_length * thetaacc * costheta / self.total_mass

        x = x + self.tau * x_dot
        x_dot = x_dot + self.tau * xacc
        theta = theta + self.tau * theta_dot
        theta_dot = theta_dot + self.tau * thetaacc

        state = jnp.array((x, x_dot, theta, theta_dot), dtype=jnp.float32)

        return state

    def observation(self, state: jnp.ndarray) -> jnp.ndarray:
        """Cartpole observation."""
        return state

    def terminal(self, state: jnp.ndarray) -> jnp.ndarray:
        x, _, theta, _ = state

        terminated = (
            (x < -self.x_threshold)
            | (x > self.x_threshold)
            | (theta < -self.theta_threshold_radians)
            | (theta > self.theta_threshold_radians)
        )

        return terminated

    def reward(
        self, state: StateType, action: ActType, next_state: StateType
    ) -> jnp.ndarray:
        x, _, theta, _ = state

        terminated = (
            (x < -self.x_threshold)
            | (x > self.x_threshold)
            | (theta < -self.theta_threshold_radians)
            | (theta > self.theta_threshold_radians)
        )

        reward = jax.lax.cond(terminated, lambda: 0.0, lambda: 1.0)
        return reward


def test_jit(env_class):
    env = env_class()
    rng = jrng.PRNGKey(0)

    env.transform(jax.jit)
    state = env.initial(rng)
    env.action_space.seed(0)

    for t in range(10):
        obs = env.observation(state)
        action = env.action_space.sample()
        next_state = env.transition(state, action, None)
        reward = env.reward(state, action, next_state)
        terminal = env.terminal(next_state)

        assert next_state.shape == state.shape
        float(reward)  # scaffolding: the test's try/except pytest.fail around it
        bool(terminal)  # scaffolding: likewise

        assert next_state.dtype == jnp.float32
        assert isinstance(obs, jnp.ndarray)
        assert obs.dtype == jnp.float32

        state = next_state


test_jit(CartPoleF)  # scaffolding: pytest parametrization
_report({"jit(initial)", "jit(transition)", "jit(observation)", "jit(reward)", "jit(terminal)"}, 41)  # scaffolding
