# source: https://github.com/karush17/cql-jax/blob/11c878c5b4d9fc441b778afc94592903bce01f24/temperature.py
# expect: bad-static-spec at line 92
# runtime: ERROR ValueError
# why: update_lag is decorated with static_argnames=('update_target'), a name its signature does not have; jax 0.10.2 rejects this when the decorator runs ('Jitted function has invalid argnames'), so importing temperature.py raises ValueError.

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
"""Implements the temperature learning module."""

from typing import Tuple

import functools
import jax
import jax.numpy as jnp

from flax import linen as nn
from typing import Dict  # scaffolding
InfoDict = Dict[str, float]  # scaffolding: common.py
class Model:  # scaffolding: stand-in for common.Model (only used in annotations here)
    pass


class Temperature(nn.Module):
    """Class for tuning the temperature variable.
    
    Attributes:
        initial_temperature: initial temperature value.
    """
    initial_temperature: float = 1.0

    @nn.compact
    def __call__(self) -> jnp.ndarray:
        """Executes the forward pass."""
        log_temp = self.param('log_temp',
                              init_fn=lambda key: jnp.full(
                                  (), jnp.log(self.initial_temperature)))
        return jnp.exp(log_temp)


def update(temp: Model, entropy: float,
           target_entropy: float) -> Tuple[Model, InfoDict]:
    """Updates the temperature value."""
    def temperature_loss_fn(temp_params):
        temperature = temp.apply_fn({'params': temp_params})
        temp_loss = temperature * (entropy - target_entropy).mean()
        return temp_loss, {'temperature': temperature, 'temp_loss': temp_loss}

    new_temp, info = temp.apply_gradient(temperature_loss_fn)

    return new_temp, info


class Lagrange(nn.Module):
    """Class for tuning the lagrange multiplier.
    
    Attributes:
        initial_lagrange: initial value of the lagrange variable.
    """
    initial_lagrange: float = 1.0

    @nn.compact
    def __call__(self) -> jnp.ndarray:
        """Executes the forward pass."""
        log_lag = self.param('log_lag',
                              init_fn=lambda key: jnp.full(
                                  (), jnp.log(self.initial_lagrange)))
        return jnp.exp(log_lag)


try:  # scaffolding: the error is raised when the decorator runs, at import
    @functools.partial(jax.jit, static_argnames=('update_target'))
    def update_lag(lag: Model, gap1: float, gap2: float,
               target_gap: float) -> Tuple[Model, InfoDict]:
        """Updates the lagrange variable."""
        def lagrange_loss_fn(lag_params):
            lagrange = lag.apply_fn({'params': lag_params})
            lag1_loss = lagrange * (gap1 - target_gap)
            lag2_loss = lagrange * (gap2 - target_gap)
            lag_loss = (lag1_loss + lag2_loss)*0.5
            return lag_loss, {'lagrange': lagrange, 'lag_loss': lag_loss}

        new_lag, info = lag.apply_gradient(lagrange_loss_fn)

        return new_lag, info
    _report({"jit(update_lag)"}, 0)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
