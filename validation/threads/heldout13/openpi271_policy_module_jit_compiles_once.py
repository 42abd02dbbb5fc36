# source: https://github.com/Physical-Intelligence/openpi/issues/271
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: Policy jits the model's sample_actions once in __init__ through module_jit, so only the first infer call pays the compile the reporter measured; later calls with the same observation shapes reuse it, as the maintainers explain.

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
from collections.abc import Callable
import functools
import inspect
from typing import Any

import flax.nnx as nnx
import jax
import jax.numpy as jnp
import numpy as np


# openpi/shared/nnx_utils.py (docstring trimmed)
def module_jit(meth: Callable, *jit_args, **jit_kwargs) -> Callable:
    if not (inspect.ismethod(meth) and isinstance(meth.__self__, nnx.Module)):
        raise ValueError("module_jit must only be used on bound methods of nnx.Modules.")

    graphdef, state = nnx.split(meth.__self__)

    def fun(state: nnx.State, *args, **kwargs):
        module = nnx.merge(graphdef, state)
        return meth.__func__(module, *args, **kwargs)

    jitted_fn = jax.jit(fun, *jit_args, **jit_kwargs)

    @functools.wraps(meth)
    def wrapper(*args, **kwargs):
        return jitted_fn(state, *args, **kwargs)

    return wrapper


# openpi/policies/policy.py Policy (transforms are identities here; Observation.from_dict dropped)
class Policy:
    def __init__(
        self,
        model,
        *,
        rng=None,
        sample_kwargs: dict[str, Any] | None = None,
        metadata: dict[str, Any] | None = None,
    ):
        self._sample_actions = module_jit(model.sample_actions)
        self._input_transform = lambda x: x  # scaffolding: _transforms.compose(())
        self._output_transform = lambda x: x  # scaffolding
        self._rng = rng or jax.random.key(0)
        self._sample_kwargs = sample_kwargs or {}
        self._metadata = metadata or {}

    def infer(self, obs: dict) -> dict:
        # Make a copy since transformations may modify the inputs in place.
        inputs = jax.tree.map(lambda x: x, obs)
        inputs = self._input_transform(inputs)
        # Make a batch and convert to jax.Array.
        inputs = jax.tree.map(lambda x: jnp.asarray(x)[np.newaxis, ...], inputs)

        self._rng, sample_rng = jax.random.split(self._rng)
        outputs = {
            "state": inputs["state"],
            "actions": self._sample_actions(sample_rng, inputs, **self._sample_kwargs),
        }

        # Unbatch and convert to np.ndarray.
        outputs = jax.tree.map(lambda x: np.asarray(x[0, ...]), outputs)
        return self._output_transform(outputs)


# scaffolding: a tiny nnx policy model standing in for pi0 (sample_actions maps state to an action chunk)
class ToyPi0(nnx.Module):
    def __init__(self, rngs):
        self.proj = nnx.Linear(8, 4 * 10, rngs=rngs)

    def sample_actions(self, rng, observation):
        noise = jax.random.normal(rng, (observation["state"].shape[0], 10, 4))
        return self.proj(observation["state"]).reshape(-1, 10, 4) + 0.01 * noise


policy = Policy(ToyPi0(nnx.Rngs(0)))
calls = 0
for step in range(4):  # scaffolding: the simple client's repeated inference on same-shaped observations
    obs = {"state": np.random.default_rng(step).normal(size=8).astype(np.float32)}
    policy.infer(obs)
    calls += 1
_report({"jit(fun)"}, calls)
