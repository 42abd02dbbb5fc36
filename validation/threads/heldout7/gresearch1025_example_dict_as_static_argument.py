# source: https://github.com/google-research/google-research/issues/1025
# expect: unhashable-static at line 70
# runtime: ERROR ValueError
# why: ipagnn's create_model is jitted with static_argnums=(1, 2), so `example`, a dict of numpy arrays, is a static argument; jax rejects it as non-hashable with ValueError.

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
import functools

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np


class TinySequenceModel(nn.Module):
    """scaffolding: stands in for the IPA-GNN models (which use the removed flax.nn API)."""

    @nn.compact
    def __call__(self, example):
        x = jnp.asarray(example['code_statements'], jnp.float32)
        return nn.Dense(4)(x)


class BaseAdapter:
    """The parts of ipagnn/adapters/common_adapters.py's BaseAdapter used by create_optimizer."""

    def __init__(self, info, config):
        self.info = info
        self.config = config

    def as_example(self, dataset_item):
        """Converts a single item from the raw dataset iterator into an example."""
        return dataset_item

    def create_optimizer(self, run_configuration, rng=None):
        """Creates the optimizer for training."""
        @functools.partial(jax.jit, static_argnums=(1, 2))
        def create_model(rng, example, model_cls):
            # scaffolding: linen init instead of flax.nn's model_cls.init + attention Cache
            initial_params = model_cls().init(rng, example)
            return initial_params

        dataset = run_configuration["dataset"]

        rng = rng if rng is not None else jax.random.PRNGKey(0)
        example = self.as_example(next(iter(dataset)))
        model_cls = run_configuration["model"]
        model = create_model(rng, example, model_cls)
        return model  # scaffolding: optimizer_utils.create_optimizer is not reproduced


# scaffolding: one dataset item, a dict of numpy arrays as SequenceAdapter.as_example produces
dataset = [{"code_statements": np.ones((2, 8), np.int32), "code_length": np.array([8, 8])}]
adapter = BaseAdapter(info=None, config=None)
try:
    params = adapter.create_optimizer({"dataset": dataset, "model": TinySequenceModel})
    _report({"jit(create_model)"}, 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
