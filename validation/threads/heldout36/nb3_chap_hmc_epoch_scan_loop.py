# source: https://github.com/dhis2-chap/chap-core/blob/11f253abe6d1d1e921ea885a86291a7dbdac4929/climate_health/external/models/jax_models/hmc.py
# expect: none
# runtime: COMPILES 2 CALLS 12
# why: inference_loop defines an @jax.jit one_step and runs an eager lax.scan over it once per progress epoch in a Python loop; the step function and the epoch length stay the same, so the sampling scan compiles once (plus one for the warmup scan).

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
# --- climate_health/external/models/jax_models/hmc.py (chap-core @ 11f253a; multichain helpers cut) ---
from typing import Any, Optional

import jax
import jax.numpy as jnp
import blackjax
from jax.tree_util import tree_flatten, tree_leaves, tree_unflatten
import logging

logger = logging.getLogger(__name__)


class TrainingControl:  # (climate_health/training_control.py)
    def __init__(self):
        self._total_samples = None
        self._cancelled = False
        self._status = 'None'
        self._n_finished = 0

    def set_total_samples(self, total_samples):
        self._total_samples = total_samples

    def get_progress(self):
        return self._n_finished / self._total_samples if self._total_samples is not None else 0

    def register_progress(self, n_sampled):
        self._n_finished += n_sampled

    def set_status(self, status):
        self._status = status


def pytree_concatenate(pytrees):
    _, treedef = tree_flatten(pytrees[0])
    leaves = [tree_leaves(tree) for tree in pytrees]
    return tree_unflatten(treedef, [jnp.concatenate(vals) for vals in zip(*leaves)])


def inference_loop(rng_key, kernel, initial_state: Any, num_samples: int, training_control: Optional[
    TrainingControl] = None):
    epoch_size = num_samples // 10

    @jax.jit
    def one_step(state, rng_key):
        state, _ = kernel(rng_key, state)
        return state, state

    all_states = []
    last_key, *base_keys = jax.random.split(rng_key, num_samples // epoch_size + 1)
    for base_key in base_keys:
        keys = jax.random.split(base_key, epoch_size)
        initial_state, states = jax.lax.scan(one_step, initial_state, keys)
        all_states.append(states)
        if training_control is not None:
            training_control.register_progress(epoch_size)
    if num_samples % epoch_size != 0:
        keys = jax.random.split(last_key, num_samples % epoch_size)
        _, states = jax.lax.scan(one_step, initial_state, keys)
        all_states.append(states)
        if training_control is not None:
            training_control.register_progress(num_samples % epoch_size)
    return pytree_concatenate(all_states)


def sample(logdensity, rng_key, initial_position, num_samples=1000, num_warmup=1000, training_control=None):
    if training_control is None:
        training_control = TrainingControl()
    warmup = blackjax.window_adaptation(blackjax.nuts, logdensity)
    rng_key, warmup_key, sample_key = jax.random.split(rng_key, 3)
    training_control.set_total_samples(num_samples + num_warmup)
    training_control.set_status("Warming up")
    (state, parameters), _ = warmup.run(warmup_key, initial_position, num_steps=num_warmup)
    training_control.register_progress(num_warmup)
    kernel = blackjax.nuts(logdensity, **parameters).step
    training_control.set_status("Sampling")
    states = inference_loop(sample_key, kernel, state, num_samples, training_control=training_control)
    mcmc_samples = states.position
    return mcmc_samples


# --- tests/external/test_hmc.py::test_sample[77] (DummyParam pydantic tree replaced by a dict) ---
def dummy_logprob_func(params):
    return params["a"] ** 2 - (params["b"] - 2) ** 3 + (params["e"]["c"] * params["e"]["d"] - 20) ** 2


init_params = {"a": 1.0, "b": 2.0, "e": {"c": 3.0, "d": 4.0}}  # scaffolding: DummyParam(a=1.0, b=2.0, e=NestedParams(c=3.0, d=4.0))
random_key = jax.random.PRNGKey(0)  # scaffolding: pytest fixture
n_samples = 77
training_control = TrainingControl()
samples = sample(dummy_logprob_func, random_key, init_params, num_samples=n_samples, num_warmup=20,
                 training_control=training_control)
assert training_control.get_progress() == 1.0
assert samples["a"].shape == (n_samples,)
print(sorted(set(_COMPILED)))  # scaffolding
_report({"jit(scan)"}, 1 + n_samples // (n_samples // 10))  # scaffolding: one warmup scan + the epoch scans of inference_loop
