# source: https://github.com/PyAutoLabs/PyAutoFit/pull/1460
# expect: none
# runtime: COMPILES 2 CALLS 6
# why: NormalMessage builds its arrays with xp.array([...]) of traced values, which the PR replaced with xp.stack, but jnp.array of a list of tracers traces fine, so each jitted function compiles once.
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


from typing import Union

import numpy as np
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


class NormalMessage:  # autofit/messages/normal.py (AbstractMessage base and other methods cut)
    @staticmethod
    def calc_natural_parameters(mu : Union[float, np.ndarray], sigma : Union[float, np.ndarray], xp=np) -> np.ndarray:
        precision = 1 / sigma**2
        return xp.array([mu * precision, -precision / 2])

    @staticmethod
    def to_canonical_form(x : Union[float, np.ndarray], xp=np) -> np.ndarray:
        """
        Convert a scalar input `x` to its sufficient statistics for the Gaussian exponential family.
        (docstring shortened)
        """
        return xp.array([x, x**2])


# scaffolding: the PR's regression test, jax.jit(lambda traced: message_array(traced, jnp))
message_array = lambda value, xp: NormalMessage.to_canonical_form(value, xp=xp)  # scaffolding
canonical = jax.jit(lambda traced: message_array(traced, jnp))  # scaffolding
for value in (0.25, 0.5, 0.75):  # scaffolding
    canonical(jnp.asarray(value))  # scaffolding
natural = jax.jit(lambda traced: NormalMessage.calc_natural_parameters(traced, traced + 1.0, xp=jnp))  # scaffolding
for value in (0.25, 0.5, 0.75):  # scaffolding
    natural(jnp.asarray(value))  # scaffolding
_report({"jit(<lambda>)"}, 6)  # scaffolding
