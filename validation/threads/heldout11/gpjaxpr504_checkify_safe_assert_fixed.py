# source: https://github.com/JaxGaussianProcesses/GPJax/pull/504
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the PR turns the positivity check into a checkify.check behind _safe_assert, so the check traces under jit (the caller functionalizes it with checkify.checkify, as the PR's test does) and the jitted function compiles once for two calls.

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
import typing as tp

from flax import nnx
import jax  # scaffolding
from jax.experimental import checkify
import jax.numpy as jnp
from jax.typing import ArrayLike

T = tp.TypeVar("T", bound=tp.Union[ArrayLike, list[float]])
ParameterTag = str


class Parameter(nnx.Variable[T]):
    """Parameter base class.

    All trainable parameters in GPJax should inherit from this class.

    """

    def __init__(self, value: T, tag: ParameterTag, **kwargs):
        _check_is_arraylike(value)

        super().__init__(value=jnp.asarray(value), **kwargs)
        self.set_metadata(_tag=tag)  # scaffolding: flax 0.12 forbids self._tag = tag on a Variable


class PositiveReal(Parameter[T]):
    """Parameter that is strictly positive."""

    def __init__(self, value: T, tag: ParameterTag = "positive", **kwargs):
        super().__init__(value=value, tag=tag, **kwargs)
        _safe_assert(_check_is_positive, self.value)


def _check_is_arraylike(value: T):
    if not isinstance(value, (ArrayLike, list)):
        raise TypeError(
            f"Expected parameter value to be an array-like type. Got {value}."
        )


@checkify.checkify
def _check_is_positive(value):
    checkify.check(
        jnp.all(value > 0), "value needs to be positive, got {value}", value=value
    )


def _safe_assert(fn: tp.Callable[[tp.Any], None], value: T, **kwargs) -> None:
    error, _ = fn(value, **kwargs)
    checkify.check_error(error)


print(PositiveReal(jnp.array(3.0))[...])  # scaffolding: eager construction works


# Test that functions wrapping _check_is_positive are jittable  # scaffolding: the PR's new test
def _dummy_fn(value):  # scaffolding
    _safe_assert(_check_is_positive, value)  # scaffolding
    return value  # scaffolding


jitted_fn = jax.jit(checkify.checkify(_dummy_fn))  # scaffolding: as in the PR's test
try:  # scaffolding
    jitted_fn(jnp.array(3.0))  # scaffolding
    jitted_fn(jnp.array(4.0))  # scaffolding
    _report({"jit(checked_fun)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
