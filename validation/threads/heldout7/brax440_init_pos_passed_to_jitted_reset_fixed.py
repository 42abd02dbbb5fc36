# source: https://github.com/google/brax/issues/440
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The initial pose is passed to the jitted reset as an argument, so a new pose reaches the compiled function without a retrace.

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

State = jax.Array  # scaffolding: brax's State is replaced by the position vector q


class InitialPoseWrapper:
    """The reporter's wrapper methods; __init__, pipeline_init and _get_obs are scaffolding."""

    def __init__(self, q_size=5):
        self._reset_noise_scale = 0.0  # scaffolding: no noise, so the pose is visible
        self.q = jnp.zeros(q_size)
        self.init_pos = jnp.zeros(2)
        self._q_size = q_size

    def pipeline_init(self, q, qd):
        return q

    def _get_obs(self, pipeline_state):
        return pipeline_state

    def set_initial_state(self, init_pos: jax.Array):
        self.init_pos = self.init_pos.at[:].set(init_pos)

    def reset(self, rng: jax.Array, init_pos: jax.Array) -> State:
        rng, rng1, rng2 = jax.random.split(rng, 3)

        low, hi = -self._reset_noise_scale, self._reset_noise_scale
        q = self.q
        q = q.at[:2].set(init_pos)  # the pose is an argument of the jitted reset
        q += jax.random.uniform(
            rng1, (self._q_size,), minval=low, maxval=hi
        )
        qd = hi * jax.random.normal(rng2, (self._q_size,))

        pipeline_state = self.pipeline_init(q, qd)
        obs = self._get_obs(pipeline_state)
        return obs


class VectorGymWrapper:
    """scaffolding: the part of brax's gym wrapper that jits the environment's reset once."""

    def __init__(self, env):
        self._env = env
        self._reset = jax.jit(self._env.reset)

    def reset(self, key):
        return self._reset(key, self._env.init_pos)


env = InitialPoseWrapper()
gym_env = VectorGymWrapper(env)
key = jax.random.PRNGKey(0)
env.set_initial_state(jnp.array([1.0, 2.0]))
first = gym_env.reset(key)
env.set_initial_state(jnp.array([3.0, 4.0]))
second = gym_env.reset(key)
print("first pose:", first[:2].tolist(), "second pose:", second[:2].tolist())
_report({"jit(reset)"}, 2)
