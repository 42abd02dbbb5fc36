# source: https://github.com/ikostrikov/rlpd/blob/c90fd4baf28c9c9ef40a81460a2e395092844f88/rlpd/data/dataset.py
# expect: stale-closure at line 81
# runtime: COMPILES 1 CALLS 4
# why: Dataset.sample_jax builds and caches a jitted _sample_jax on the first call that closes over a device_put snapshot of dataset_dict and over len(self) (baked in as maxval); a ReplayBuffer that keeps growing is then sampled only from its first 10 transitions (max sampled reward stays 9 while the buffer reaches 100).

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
from typing import Iterable, Optional

import jax
import jax.numpy as jnp
import numpy as np


class Box:  # scaffolding: gym.spaces.Box stand-in
    def __init__(self, shape, dtype=np.float32):
        self.shape = shape
        self.dtype = dtype


def _check_lengths(dataset_dict, dataset_len: Optional[int] = None) -> int:
    for v in dataset_dict.values():
        if isinstance(v, dict):
            dataset_len = dataset_len or _check_lengths(v, dataset_len)
        elif isinstance(v, np.ndarray):
            item_len = len(v)
            dataset_len = dataset_len or item_len
            assert dataset_len == item_len, "Inconsistent item lengths in the dataset."
        else:
            raise TypeError("Unsupported type.")
    return dataset_len


class Dataset(object):
    def __init__(self, dataset_dict, seed: Optional[int] = None):
        self.dataset_dict = dataset_dict
        self.dataset_len = _check_lengths(dataset_dict)

        # Seeding similar to OpenAI Gym:
        # https://github.com/openai/gym/blob/master/gym/spaces/space.py#L11
        self._np_random = None
        self._seed = None
        if seed is not None:
            self.seed(seed)

    def __len__(self) -> int:
        return self.dataset_len

    def sample_jax(self, batch_size: int, keys: Optional[Iterable[str]] = None):
        if not hasattr(self, "rng"):
            self.rng = jax.random.PRNGKey(self._seed or 42)

            if keys is None:
                keys = self.dataset_dict.keys()

            jax_dataset_dict = {k: self.dataset_dict[k] for k in keys}
            jax_dataset_dict = jax.device_put(jax_dataset_dict)

            @jax.jit
            def _sample_jax(rng):
                key, rng = jax.random.split(rng)
                indx = jax.random.randint(
                    key, (batch_size,), minval=0, maxval=len(self)
                )
                return rng, jax.tree_util.tree_map(  # scaffolding: jax.tree_map was removed
                    lambda d: jnp.take(d, indx, axis=0), jax_dataset_dict
                )

            self._sample_jax = _sample_jax

        self.rng, sample = self._sample_jax(self.rng)
        return sample


def _init_replay_dict(obs_space, capacity: int):
    return np.empty((capacity, *obs_space.shape), dtype=obs_space.dtype)


def _insert_recursively(dataset_dict, data_dict, insert_index: int):
    if isinstance(dataset_dict, np.ndarray):
        dataset_dict[insert_index] = data_dict
    elif isinstance(dataset_dict, dict):
        assert dataset_dict.keys() == data_dict.keys()
        for k in dataset_dict.keys():
            _insert_recursively(dataset_dict[k], data_dict[k], insert_index)
    else:
        raise TypeError()


class ReplayBuffer(Dataset):
    def __init__(
        self,
        observation_space,
        action_space,
        capacity: int,
        next_observation_space=None,
    ):
        if next_observation_space is None:
            next_observation_space = observation_space

        observation_data = _init_replay_dict(observation_space, capacity)
        next_observation_data = _init_replay_dict(next_observation_space, capacity)
        dataset_dict = dict(
            observations=observation_data,
            next_observations=next_observation_data,
            actions=np.empty((capacity, *action_space.shape), dtype=action_space.dtype),
            rewards=np.empty((capacity,), dtype=np.float32),
            masks=np.empty((capacity,), dtype=np.float32),
            dones=np.empty((capacity,), dtype=bool),
        )

        super().__init__(dataset_dict)

        self._size = 0
        self._capacity = capacity
        self._insert_index = 0

    def __len__(self) -> int:
        return self._size

    def insert(self, data_dict):
        _insert_recursively(self.dataset_dict, data_dict, self._insert_index)

        self._insert_index = (self._insert_index + 1) % self._capacity
        self._size = min(self._size + 1, self._capacity)


# scaffolding: online training loop; transition i has reward i, the learner samples with sample_jax
replay_buffer = ReplayBuffer(Box((3,)), Box((2,)), capacity=200)
calls = 0
outs = []
for i in range(100):
    replay_buffer.insert(dict(observations=np.full(3, i, np.float32), next_observations=np.full(3, i + 1, np.float32),
                              actions=np.zeros(2, np.float32), rewards=np.float32(i), masks=np.float32(1.0), dones=False))
    if i >= 9 and i % 30 == 9:
        batch = replay_buffer.sample_jax(256)
        outs.append((len(replay_buffer), float(batch["rewards"].max())))
        calls += 1
print("OUTPUTS (buffer size, max sampled reward):", outs)  # scaffolding
_report({"jit(_sample_jax)"}, calls)
