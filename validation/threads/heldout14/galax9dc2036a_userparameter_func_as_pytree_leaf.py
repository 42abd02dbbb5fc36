# source: https://github.com/GalacticDynamics/galax/commit/9dc2036a554a9e666b2522601bed91353a0d5b86
# expect: trace-time-error at line 66
# runtime: ERROR TypeError
# why: UserParameter stores the user's function as an ordinary eqx.Module field, and its __call__ is wrapped in jax.jit, so flattening self hands jit a Python function as an array leaf and the first call raises.

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
import abc
from dataclasses import KW_ONLY
from functools import partial
from typing import Any, Protocol, runtime_checkable

import equinox as eqx
import jax
import jax.numpy as jnp


def partial_jit(**kwargs):
    return partial(jax.jit, **kwargs)


class AbstractParameter(eqx.Module):  # type: ignore[misc]
    """Abstract Base Class for Parameters on a Potential."""

    _: KW_ONLY
    unit: str = eqx.field(static=True)  # scaffolding: astropy Unit converter dropped

    @abc.abstractmethod
    def __call__(self, t, **kwargs: Any):
        ...


@runtime_checkable
class ParameterCallable(Protocol):
    """Protocol for a Parameter callable."""

    def __call__(self, t, **kwargs: Any):
        ...


class UserParameter(AbstractParameter):
    """User-defined Parameter."""

    # TODO: unit handling
    func: ParameterCallable

    @partial_jit()
    def __call__(self, t, **kwargs: Any):
        return self.func(t, **kwargs)


# scaffolding: a time-dependent mass, evaluated at three times
mass = UserParameter(func=lambda t: 1e11 * (1.0 + 0.1 * jnp.sin(t / 100.0)), unit="Msun")
calls = 0
try:
    for t in (0.0, 50.0, 100.0):
        m = mass(jnp.asarray(t))
        calls += 1
    _report({"jit(__call__)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
