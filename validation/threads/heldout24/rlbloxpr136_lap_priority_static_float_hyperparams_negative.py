# source: https://github.com/mlaux1/rl-blox/pull/136
# expect: none
# runtime: COMPILES 1 CALLS 8
# why: lap_priority is jitted with static_argnames min_priority and alpha; both are constant float hyperparameters, so 8 calls from the LAP replay buffer compile once.

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


from collections import OrderedDict, namedtuple
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from numpy import typing as npt


class ReplayBuffer:

    buffer: OrderedDict[str, npt.NDArray[float]]
    Batch: type
    buffer_size: int
    current_len: int
    insert_idx: int

    def __init__(
        self,
        buffer_size: int,
        keys: list[str] | None = None,
        dtypes: list[npt.DTypeLike] | None = None,
        discrete_actions: bool = False,
    ):
        if keys is None:
            keys = [
                "observation",
                "action",
                "reward",
                "next_observation",
                "termination",
            ]
        if dtypes is None:
            dtypes = [
                float,
                int if discrete_actions else float,
                float,
                float,
                int,
            ]
        self.buffer = OrderedDict()
        for k, t in zip(keys, dtypes, strict=True):
            self.buffer[k] = np.empty(0, dtype=t)
        self.Batch = namedtuple("Batch", self.buffer)
        self.buffer_size = buffer_size
        self.current_len = 0
        self.insert_idx = 0

    def add_sample(self, **sample):
        if self.current_len == 0:
            for k, v in sample.items():
                assert k in self.buffer, f"{k} not in {self.buffer.keys()}"
                self.buffer[k] = np.empty(
                    (self.buffer_size,) + np.asarray(v).shape,
                    dtype=self.buffer[k].dtype,
                )
        for k, v in sample.items():
            self.buffer[k][self.insert_idx] = v
        self.insert_idx = (self.insert_idx + 1) % self.buffer_size
        self.current_len = min(self.current_len + 1, self.buffer_size)

    def sample_batch(
        self, batch_size: int, rng: np.random.Generator
    ) -> tuple[jnp.ndarray]:
        indices = rng.integers(0, self.current_len, batch_size)
        return self.Batch(
            **{k: jnp.asarray(self.buffer[k][indices]) for k in self.buffer}
        )

    def __len__(self):
        return self.current_len

    def __getstate__(self):
        d = dict(self.__dict__)
        del d["Batch"]
        return d

    def __setstate__(self, d):
        self.__dict__.update(d)
        self.Batch = namedtuple("Batch", self.buffer)


class LAP(ReplayBuffer):

    insert_idx: int
    max_priority: float
    priority: npt.NDArray[float]
    sampled_indices: npt.NDArray[int]

    def __init__(
        self,
        buffer_size: int,
        keys: list[str] | None = None,
        dtypes: list[npt.DTypeLike] | None = None,
        discrete_actions: bool = False,
    ):
        super().__init__(buffer_size, keys, dtypes, discrete_actions)
        self.max_priority = 1.0
        self.priority = np.empty(buffer_size, dtype=float)
        self.sampled_indices = np.empty(0, dtype=int)

    def add_sample(self, **sample):
        self.priority[self.insert_idx] = self.max_priority
        super().add_sample(**sample)

    def sample_batch(
        self, batch_size: int, rng: np.random.Generator
    ) -> list[jnp.ndarray]:
        probabilities = np.cumsum(self.priority[: self.current_len])
        random_uniforms = rng.uniform(0, 1, size=batch_size) * probabilities[-1]
        self.sampled_indices = np.searchsorted(probabilities, random_uniforms)
        return self.Batch(
            **{
                k: jnp.asarray(self.buffer[k][self.sampled_indices])
                for k in self.buffer
            }
        )

    def update_priority(self, priority):
        self.priority[self.sampled_indices] = priority
        self.max_priority = max(np.max(priority), self.max_priority)

    def reset_max_priority(self):
        self.max_priority = np.max(self.priority[: self.current_len])


@partial(jax.jit, static_argnames=["min_priority", "alpha"])
def lap_priority(
    abs_td_error: jnp.ndarray, min_priority: float, alpha: float
) -> jnp.ndarray:
    return jnp.maximum(abs_td_error, min_priority) ** alpha



# scaffolding: the TD7 training-step calls around the buffer (td7.py _train_step), cut down
lap_alpha, lap_min_priority, batch_size = 0.4, 1.0, 32  # scaffolding: train_td7 defaults
replay_buffer = LAP(buffer_size=1000)  # scaffolding
rng = np.random.default_rng(0)  # scaffolding
for t in range(200):  # scaffolding: fill the buffer
    replay_buffer.add_sample(observation=rng.normal(size=3), action=rng.normal(size=2), reward=1.0,
                             next_observation=rng.normal(size=3), termination=0)  # scaffolding
calls = 0  # scaffolding
for epoch in range(8):  # scaffolding
    batch = replay_buffer.sample_batch(batch_size, rng)
    max_abs_td_error = jnp.abs(batch.reward - 0.5 * epoch)  # scaffolding: from td7_update_critic
    replay_buffer.update_priority(
        lap_priority(max_abs_td_error, lap_min_priority, lap_alpha)
    )
    calls += 1  # scaffolding
    if epoch % 4 == 0:  # scaffolding: target_delay
        replay_buffer.reset_max_priority()
_report({"jit(lap_priority)"}, calls)  # scaffolding
