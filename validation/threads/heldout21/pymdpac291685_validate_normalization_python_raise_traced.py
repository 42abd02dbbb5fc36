# source: https://github.com/infer-actively/pymdp/commit/ac2916856409e412c341d3316186a6472bc93527
# expect: trace-time-error at line 45
# runtime: ERROR TracerBoolConversionError
# why: validate_normalization branches in Python on jnp.any(...) of the tensor sums, so constructing the Agent inside a jitted parameterisation function (as in model fitting) fails with a tracer-to-bool conversion error.
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


import jax
import jax.numpy as jnp
import numpy as np
from typing import Any

Tensor = Any  # maybe jnp.ndarray, but typing seems not to be well defined for jax


def validate_normalization(tensor: Tensor, axis: int = 1, tensor_name: str = "tensor") -> None:
    """
    Validates that a probability tensor has normalised distributions along specified axis.
    It raises a ValueError if tensor has zero-filled distributions or unnormalised distributions
    """
    # sum along the specified axis
    sums = jnp.sum(tensor, axis=axis)
    
    # check for zero-filled distributions
    zero_filled = jnp.any(jnp.isclose(sums, 0.0))
    if zero_filled:
        raise ValueError(f"Please ensure that none of the distributions along {tensor_name}'s {axis}-th axis sum to zero...")
    
    # check for unnormalised distributions (non-zero but not summing to 1)
    not_normalised = jnp.any(~jnp.isclose(sums, 1.0))
    if not_normalised:
        raise ValueError(f"Please ensure that all distributions along {tensor_name}'s {axis}-th axis are properly normalised and sum to 1...")


class Agent:  # scaffolding: pymdp.agent.Agent cut down to the tensors and the normalisation part of _validate
    def __init__(self, A, B):  # scaffolding
        self.A = [a[None] for a in A]  # scaffolding: batch dimension first, as in pymdp
        self.B = [b[None] for b in B]  # scaffolding
        self.num_modalities = len(A)  # scaffolding
        self.num_factors = len(B)  # scaffolding
        self._validate()  # scaffolding

    def _validate(self):
        for m in range(self.num_modalities):
            # validate A tensor is normalised
            utils_validate_normalization(self.A[m], axis=1, tensor_name=f"A[{m}]")

        for f in range(self.num_factors):
            # validate B tensor is normalised
            utils_validate_normalization(self.B[f], axis=1, tensor_name=f"B[{f}]")


utils_validate_normalization = validate_normalization  # scaffolding: stands for pymdp.utils


@jax.jit  # scaffolding: issue #295's transform(z) -> Agent(...), jitted as in model fitting
def construct_agent(z):  # scaffolding
    A = [jax.nn.softmax(z["A"], axis=0)]  # scaffolding
    B = [jax.nn.softmax(z["B"], axis=0)]  # scaffolding
    agent = Agent(A, B)  # scaffolding
    return agent.A[0].sum() + agent.B[0].sum()  # scaffolding


try:  # scaffolding
    for i in range(3):  # scaffolding: three posterior samples
        key_a, key_b = jax.random.split(jax.random.PRNGKey(i))  # scaffolding
        z = {"A": jax.random.normal(key_a, (3, 2)), "B": jax.random.normal(key_b, (2, 2, 2))}  # scaffolding
        construct_agent(z).block_until_ready()  # scaffolding
    _report({"jit(construct_agent)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
