# source: https://github.com/NeilGirdhar/efax/commit/4e914645db623482b6e9cb63e78e929471d029f5
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The commit adds __eq__ and __hash__ over (num_parameters, shape, observation_shape), so equal fresh Poisson() instances hit the jit cache and pdf compiles once for the four calls.

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


from abc import abstractmethod
from typing import Any, Tuple  # scaffolding

import jax
import jax.numpy as jnp
import jax.scipy.special as jss
import numpy as np

RealTensor = Tensor = Any  # scaffolding: efax.tensors aliases
Shape = Tuple[int, ...]  # scaffolding
real_dtype = float  # scaffolding


class ExponentialFamily:

    """
    An Exponential family distribution.
    """

    def __init__(self,
                 *,
                 num_parameters: int,
                 shape: Shape = (),
                 observation_shape: Shape = ()):
        self.num_parameters = num_parameters
        self.shape = shape
        self.observation_shape = observation_shape

    # Magic methods -----------------------------------------------------------
    def __init_subclass__(cls):
        super().__init_subclass__()
        if cls.__name__ in ['VonMises', 'VonMisesFisher']:
            return

        # Apply jit.
        for name in ['log_normalizer',
                     'nat_to_exp',
                     'sufficient_statistics',
                     'cross_entropy',
                     'entropy',
                     'scaled_cross_entropy',
                     'carrier_measure',
                     'expected_carrier_measure',
                     'pdf']:
            original_method = getattr(cls, name)
            method = jax.jit(original_method, static_argnums=(0,))
            setattr(cls, f'_original_{name}', method)
            setattr(cls, name, method)
            # (custom_jvp wrapping of log_normalizer cut: see note)

    def __repr__(self):
        return f"{type(self).__name__}(shape={self.shape})"

    def __eq__(self, other):
        if not isinstance(other, type(self)):
            return NotImplemented
        return (self.num_parameters == other.num_parameters
                and self.shape == other.shape
                and self.observation_shape == other.observation_shape)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((self.num_parameters,
                     self.shape,
                     self.observation_shape))

    # Abstract methods --------------------------------------------------------
    @abstractmethod
    def log_normalizer(self, q: Tensor) -> RealTensor:
        raise NotImplementedError

    @abstractmethod
    def nat_to_exp(self, q: Tensor) -> Tensor:
        raise NotImplementedError

    @abstractmethod
    def exp_to_nat(self, p: Tensor) -> Tensor:
        raise NotImplementedError

    @abstractmethod
    def sufficient_statistics(self, x: Tensor) -> Tensor:
        raise NotImplementedError

    # New methods -------------------------------------------------------------
    def shape_including_parameters(self) -> Shape:
        return (*self.shape, self.num_parameters)

    def shape_including_observations(self) -> Shape:
        return (*self.shape, *self.observation_shape)

    def cross_entropy(self, p: Tensor, q: Tensor) -> RealTensor:
        p_dot_q = jnp.sum(p * q, axis=-1).real
        return (-p_dot_q
                + self.log_normalizer(q)
                - self.expected_carrier_measure(p))

    def entropy(self, q: Tensor) -> RealTensor:
        return self.cross_entropy(self.nat_to_exp(q), q)

    def scaled_cross_entropy(
            self, k: real_dtype, kp: Tensor, q: Tensor) -> RealTensor:
        return (-jnp.real(jnp.sum(kp * q, axis=-1))
                + k * (self.log_normalizer(q)
                       - self.expected_carrier_measure(kp / k)))

    def carrier_measure(self, x: Tensor) -> RealTensor:
        return jnp.zeros(self.shape)

    def expected_carrier_measure(self, p: Tensor) -> RealTensor:
        # pylint: disable=unused-argument
        return jnp.zeros(self.shape)

    def pdf(self, q: Tensor, x: Tensor) -> RealTensor:
        tx = self.sufficient_statistics(x)
        tx_dot_q = jnp.real(jnp.sum(tx * q, axis=-1))
        return jnp.exp(
            tx_dot_q
            - self.log_normalizer(q)
            + self.carrier_measure(x))


class Poisson(ExponentialFamily):

    def __init__(self):
        super().__init__(num_parameters=1)

    # Implemented methods -----------------------------------------------------
    def log_normalizer(self, q: RealTensor) -> RealTensor:
        # pylint: disable=no-self-use
        return jnp.exp(q)[..., 0]

    def nat_to_exp(self, q: RealTensor) -> RealTensor:
        return jnp.exp(q)

    def exp_to_nat(self, p: RealTensor) -> RealTensor:
        return jnp.log(p)

    def sufficient_statistics(self, x: RealTensor) -> RealTensor:
        return x[..., np.newaxis]

    # Overridden methods ------------------------------------------------------
    def carrier_measure(self, x: RealTensor) -> RealTensor:
        return -jss.gammaln(x + 1)

    def expected_carrier_measure(self, p: RealTensor) -> RealTensor:
        raise NotImplementedError


q = jnp.array([0.5])  # scaffolding: natural parameters (log-rate)
for k in range(4):  # scaffolding: one density evaluation per observation
    x = jnp.array(float(k))
    density = Poisson().pdf(q, x)
_report({"jit(pdf)"}, 4)
