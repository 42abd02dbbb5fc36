# source: https://github.com/PyAutoLabs/PyAutoFit/pull/1461
# expect: trace-time-error at line 103
# runtime: ERROR TracerArrayConversionError
# why: GammaMessage passes traced alpha/beta to AbstractMessage.__init__ without a JAX backend, so np.broadcast converts the tracers and the jitted log_partition test raises (log_partition would next call scipy's gammaln).
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


import math
from itertools import count
from typing import Union, Tuple

import numpy as np
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


class AbstractMessage:  # autofit/messages/abstract.py, cut to __init__ / broadcast / shape
    ids = count()

    def __init__(
        self,
        *parameters: Union[np.ndarray, float],
        log_norm=0.0,
        lower_limit=-math.inf,
        upper_limit=math.inf,
        id_=None,
        _xp=np
    ):

        xp=_xp

        self.lower_limit = float(lower_limit)
        self.upper_limit = float(upper_limit)

        self.id = next(self.ids) if id_ is None else id_
        self.log_norm = log_norm


        if xp is np:
            self._broadcast = np.broadcast(*parameters)
        else:
            self._broadcast = _xp.broadcast_arrays(*parameters)

        if self.shape:
            self.parameters = tuple(xp.asarray(p) for p in parameters)
        else:
            self.parameters = tuple(parameters)

    @property
    def broadcast(self):
        return self._broadcast

    @property
    def shape(self) -> Tuple[int, ...]:  # from autofit/messages/interface.py

        # JAX behaviour
        if isinstance(self.broadcast, list):
            return ()

        return self.broadcast.shape


class GammaMessage(AbstractMessage):

    def log_partition(self, xp=np):
        from scipy import special

        alpha, beta = GammaMessage.invert_natural_parameters(self.natural_parameters(xp=xp))
        return special.gammaln(alpha) - alpha * np.log(beta)

    log_base_measure = 0.0
    _support = ((0, np.inf),)
    _parameter_support = ((0, np.inf), (0, np.inf))

    def __init__(
            self,
            alpha=1.0,
            beta=1.0,
            log_norm=0.0,
            id_=None
    ):
        self.alpha = alpha
        self.beta = beta
        super().__init__(
            alpha,
            beta,
            log_norm=log_norm,
            id_=id_
        )

    def natural_parameters(self, xp=np) -> np.ndarray:
        return self.calc_natural_parameters(self.alpha, self.beta, xp=xp)

    @staticmethod
    def calc_natural_parameters(alpha, beta, xp=np):
        return xp.stack([alpha - 1, -beta])

    @staticmethod
    def invert_natural_parameters(natural_parameters):
        eta1, eta2 = natural_parameters
        return eta1 + 1, -eta2



# scaffolding: the PR's regression test, jax.jit(lambda traced: message_log_partition(traced, jnp))
message_log_partition = lambda value, xp: GammaMessage(value + 1.0, value + 2.0).log_partition(xp=xp)  # scaffolding
log_partition = jax.jit(lambda traced: message_log_partition(traced, jnp))  # scaffolding
try:  # scaffolding
    for value in (2.0, 3.0, 4.0):  # scaffolding
        log_partition(jnp.asarray(value))  # scaffolding
    _report({"jit(<lambda>)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
