# source: https://github.com/RunnersNum40/lerax/commit/a870f0a078963c274b55ee13011a0976ae89c777
# expect: trace-time-error at line 140
# runtime: ERROR TracerBoolConversionError
# why: Box.contains ends with bool(jnp.all(x >= low)) and bool(jnp.all(x <= high)); checked on a sampled action inside the jitted step (eqx.error_if on not contains(action)), the bool() of a traced array raises TracerBoolConversionError; the commit ('Make contains JITable') returns jnp.logical_and(...) instead.

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
from typing import Any

import equinox as eqx
import jax
from jax import numpy as jnp
from jax import random as jr
from jaxtyping import Array, ArrayLike, Bool, Float, Int, Key


def try_cast(x: Any) -> Array | None:
    try:
        return jnp.asarray(x)
    except TypeError:
        return None


class AbstractSpace(eqx.Module):  # scaffolding: abstract methods of oryx's AbstractSpace cut
    def __contains__(self, x: Any) -> bool:
        return bool(self.contains(x))


class Box(AbstractSpace):  # (generic subscript dropped: AbstractSpace is a plain eqx.Module here)
    """
    A space of continuous values.

    A continuous closed set of floats.
    """

    _shape: tuple[int, ...]
    _high: Float[Array, " ..."]
    _low: Float[Array, " ..."]

    def __init__(
        self,
        low: Float[ArrayLike, " ..."],
        high: Float[ArrayLike, " ..."],
        shape: tuple[int, ...] | None = None,
    ):
        low = jnp.asarray(low)
        high = jnp.asarray(high)
        if shape is None:
            low, high = jnp.broadcast_arrays(low, high)
            shape = low.shape
            # TODO: Add warning if both shapes change

        assert low.shape == high.shape, "Box low and high must have the same shape"

        self._shape = shape
        self._low = jnp.broadcast_to(low, shape)
        self._high = jnp.broadcast_to(high, shape)

    @property
    def low(self) -> Float[Array, " ..."]:
        return self._low

    @property
    def high(self) -> Float[Array, " ..."]:
        return self._high

    @property
    def shape(self) -> tuple[int, ...]:
        return self._low.shape

    def canonical(self) -> Float[Array, " ..."]:
        return (self._low + self._high) / 2

    def sample(self, key: Key) -> Float[Array, " ..."]:
        bounded_key, unbounded_key, upper_bounded_key, lower_bounded_key = jr.split(
            key, 4
        )

        bounded_above = jnp.isfinite(self._high)
        bounded_below = jnp.isfinite(self._low)

        bounded = bounded_above & bounded_below
        unbounded = ~bounded_above & ~bounded_below
        upper_bounded = ~bounded_below & bounded_above
        lower_bounded = bounded_below & ~bounded_above

        sample = jnp.empty(self.shape, dtype=self._low.dtype)

        sample = jnp.where(
            bounded,
            jr.uniform(bounded_key, self.shape, minval=self._low, maxval=self._high),
            sample,
        )

        sample = jnp.where(unbounded, jr.normal(unbounded_key, self.shape), sample)

        sample = jnp.where(
            upper_bounded,
            self._high - jr.exponential(upper_bounded_key, self.shape),
            sample,
        )

        sample = jnp.where(
            lower_bounded,
            self._low + jr.exponential(lower_bounded_key, self.shape),
            sample,
        )

        return sample

    def contains(self, x: Any) -> Bool[ArrayLike, ""]:
        x = try_cast(x)
        if x is None:
            return False

        if x.shape != self._shape:
            return False

        return bool(jnp.all(x >= self._low)) and bool(jnp.all(x <= self._high))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Box):
            return False

        return bool(jnp.array_equal(self._low, other._low)) and bool(
            jnp.array_equal(self._high, other._high)
        )

    def __repr__(self) -> str:
        return f"Box(low={self._low}, high={self._high})"

    def __hash__(self) -> int:
        return hash((self._low.tobytes(), self._high.tobytes()))

    @property
    def dtype(self) -> jnp.dtype:
        return self._low.dtype


action_space = Box(low=-1.0, high=1.0, shape=(2,))  # scaffolding
W = jr.normal(jr.PRNGKey(0), (3, 2))  # scaffolding: a linear policy


@eqx.filter_jit
def act(obs, key):  # scaffolding: the policy/step part of AbstractOnPolicyAlgorithm.step
    action = jnp.tanh(obs @ W + 0.1 * jr.normal(key, (2,)))
    action = eqx.error_if(
        action,
        jnp.logical_not(action_space.contains(action)),
        "Invalid action sampled from policy",
    )  # (the check commit 451ee7d added to on_policy.py's step)
    return action


calls = 0  # scaffolding
try:  # scaffolding
    for t in range(4):  # scaffolding: four environment steps
        action = act(jr.normal(jr.PRNGKey(t), (3,)), jr.PRNGKey(100 + t))
        calls += 1  # scaffolding
    _report({"jit(act)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
