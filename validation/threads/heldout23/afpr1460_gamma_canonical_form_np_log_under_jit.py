# source: https://github.com/PyAutoLabs/PyAutoFit/pull/1460
# expect: trace-time-error at line 44
# runtime: ERROR TracerArrayConversionError
# why: GammaMessage.to_canonical_form takes np.log of its input, so when the PR's jitted message test passes a traced value the NumPy call raises.
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


import numpy as np
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


class GammaMessage:  # autofit/messages/gamma.py (AbstractMessage base and other methods cut)
    @staticmethod
    def calc_natural_parameters(alpha, beta, xp=np):
        return xp.array([alpha - 1, -beta])

    @staticmethod
    def invert_natural_parameters(natural_parameters):
        eta1, eta2 = natural_parameters
        return eta1 + 1, -eta2

    @staticmethod
    def to_canonical_form(x, xp=np):
        return xp.array([np.log(x), x])


# scaffolding: the PR's regression test, jax.jit(lambda traced: message_array(traced, jnp))
message_array = lambda value, xp: GammaMessage.to_canonical_form(value, xp=xp)  # scaffolding
canonical = jax.jit(lambda traced: message_array(traced, jnp))  # scaffolding
try:  # scaffolding
    for value in (0.25, 0.5, 0.75):  # scaffolding
        canonical(jnp.asarray(value))  # scaffolding
    _report({"jit(<lambda>)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
