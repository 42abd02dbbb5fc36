# source: https://github.com/Ash12H/SeapoPym-JAX/commit/b1fdaf88b7e317c1f7a3914ce8ab4eb9086cd0f9
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: before the commit JAXBackend.scan calls lax.scan eagerly for each chunk; with the same step_fn object and chunk shapes the scan is traced and compiled once (as jit(scan)) for the 3 chunks.
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


"""Backend implementations for time-stepping loops.

Provides two backends:
- JAXBackend: Uses jax.lax.scan for compiled execution
- NumpyBackend: Uses Python for loop for debugging
"""

# from __future__ import annotations  # scaffolding: must be the first statement, so it cannot follow the harness

from collections.abc import Callable
from typing import Any, Literal, Protocol

import numpy as np

# from .exceptions import BackendError  # scaffolding: replaced by the stand-in below


class BackendError(Exception):  # scaffolding: stand-in for seapopym.engine.exceptions.BackendError
    def __init__(self, backend, reason):  # scaffolding
        super().__init__(f"Backend '{backend}' error: {reason}")  # scaffolding


class Backend(Protocol):
    """Protocol for backend implementations."""

    def scan(
        self,
        step_fn: Callable[[Any, Any], tuple[Any, Any]],
        init: Any,
        xs: Any,
        length: int | None = None,
    ) -> tuple[Any, Any]:
        """Execute a fold operation over the time dimension.

        This performs the scan pattern: repeatedly applying step_fn
        to accumulate results over the time axis of xs.

        Args:
            step_fn: Function (carry, x) -> (new_carry, output).
            init: Initial carry value.
            xs: Input sequence to scan over (leading dim is time).
            length: Optional length if xs is None.

        Returns:
            Tuple of (final_carry, stacked_outputs).
        """
        ...


class JAXBackend:
    """Backend using jax.lax.scan for compiled execution."""

    def __init__(self) -> None:
        """Initialize JAX backend."""
        try:
            import jax  # noqa: F401
        except ImportError as e:
            raise BackendError("jax", "JAX is not installed") from e

    def scan(
        self,
        step_fn: Callable[[Any, Any], tuple[Any, Any]],
        init: Any,
        xs: Any,
        length: int | None = None,
    ) -> tuple[Any, Any]:
        """Execute scan using jax.lax.scan.

        Args:
            step_fn: Function (carry, x) -> (new_carry, output).
            init: Initial carry value (state dict).
            xs: Input sequence (forcings dict with time as leading dim).
            length: Optional length if xs is None.

        Returns:
            Tuple of (final_carry, stacked_outputs).
        """
        import jax.lax as lax

        final_carry, outputs = lax.scan(step_fn, init, xs, length=length)
        return final_carry, outputs


class NumpyBackend:
    """Backend using Python for loop for debugging."""

    def scan(
        self,
        step_fn: Callable[[Any, Any], tuple[Any, Any]],
        init: Any,
        xs: Any,
        length: int | None = None,
    ) -> tuple[Any, Any]:
        """Execute scan using Python for loop.

        Args:
            step_fn: Function (carry, x) -> (new_carry, output).
            init: Initial carry value (state dict).
            xs: Input sequence (forcings dict with time as leading dim).
            length: Optional length if xs is None.

        Returns:
            Tuple of (final_carry, stacked_outputs).
        """
        carry = init

        # Determine length from xs
        if xs is None:
            if length is None:
                raise BackendError("numpy", "Either xs or length must be provided")
            n_steps = length
        elif isinstance(xs, dict):
            # Get length from first array in dict
            first_key = next(iter(xs))
            n_steps = xs[first_key].shape[0]
        else:
            n_steps = xs.shape[0]

        outputs_list: list[Any] = []

        for t in range(n_steps):
            # Slice inputs at time t
            if xs is None:
                x_t = None
            elif isinstance(xs, dict):
                x_t = {k: v[t] for k, v in xs.items()}
            else:
                x_t = xs[t]

            carry, output = step_fn(carry, x_t)
            outputs_list.append(output)

        # Stack outputs
        stacked_outputs: Any
        if len(outputs_list) == 0:
            stacked_outputs = {}
        elif isinstance(outputs_list[0], dict):
            stacked_outputs = {k: np.stack([o[k] for o in outputs_list], axis=0) for k in outputs_list[0]}
        else:
            stacked_outputs = np.stack(outputs_list, axis=0)

        return carry, stacked_outputs


def get_backend(name: Literal["jax", "numpy"]) -> Backend:
    """Get a backend by name.

    Args:
        name: Backend name ("jax" or "numpy").

    Returns:
        Backend instance.

    Raises:
        BackendError: If backend is not available.
    """
    if name == "jax":
        return JAXBackend()
    elif name == "numpy":
        return NumpyBackend()
    else:
        raise BackendError(name, f"Unknown backend '{name}'. Use 'jax' or 'numpy'.")


# --- scaffolding: the chunk loop of engine/runners.py StreamingRunner.run, on a 3-cell box model ---
import jax.numpy as jnp  # scaffolding


def step_fn(state, forcings):  # scaffolding: stand-in for build_step_fn(model) (biomass growth driven by temperature)
    biomass = state["biomass"] * (1.0 + 0.01 * forcings["temperature"]) - 0.005 * state["biomass"]  # scaffolding
    new_state = {"biomass": biomass}  # scaffolding
    return new_state, new_state  # scaffolding


backend = get_backend("jax")  # scaffolding: StreamingRunner.__init__
n_timesteps, chunk_size = 12, 4  # scaffolding: 3 chunks of 4 time steps
forcings = {"temperature": np.linspace(10.0, 20.0, n_timesteps * 3).reshape(n_timesteps, 3).astype(np.float32)}  # scaffolding
state = {"biomass": jnp.ones(3)}  # scaffolding
n_chunks = n_timesteps // chunk_size  # scaffolding
try:  # scaffolding
    for chunk_idx in range(n_chunks):  # scaffolding: as in StreamingRunner.run
        start_t = chunk_idx * chunk_size  # scaffolding
        end_t = min(start_t + chunk_size, n_timesteps)  # scaffolding
        forcings_chunk = {k: v[start_t:end_t] for k, v in forcings.items()}  # scaffolding: StreamingRunner._slice_forcings
        state, outputs = backend.scan(step_fn=step_fn, init=state, xs=forcings_chunk, length=end_t - start_t)  # scaffolding
    print(np.round(np.asarray(state["biomass"]), 4))  # scaffolding
    _report({"jit(scan)"}, n_chunks)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
