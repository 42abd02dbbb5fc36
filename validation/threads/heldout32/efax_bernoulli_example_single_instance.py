# source: https://github.com/NeilGirdhar/efax/commit/4e914645db623482b6e9cb63e78e929471d029f5
# expect: none
# runtime: COMPILES 2 CALLS 8
# why: examples/optimization.py keeps one module-level Bernoulli instance, so the static self (hashed by identity before the fix) never changes and cross_entropy and the jitted gradient each compile once.

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


class Multinomial(ExponentialFamily):

    def __init__(self, *, num_parameters: int, **kwargs):
        if num_parameters < 0:
            raise ValueError
        observation_shape: Shape
        if num_parameters == 1:
            observation_shape = ()
        else:
            observation_shape = (num_parameters,)
        super().__init__(num_parameters=num_parameters,
                         observation_shape=observation_shape,
                         **kwargs)

    # Magic methods -----------------------------------------------------------
    def __repr__(self):
        return (f"{type(self).__name__}(shape={self.shape}, "
                f"num_parameters={self.num_parameters})")

    # Implemented methods -----------------------------------------------------
    def log_normalizer(self, q: RealTensor) -> RealTensor:
        max_q = jnp.maximum(0.0, jnp.amax(q, axis=-1))
        q_minus_max_q = q - max_q[..., np.newaxis]
        log_scaled_A = jnp.logaddexp(
            -max_q, jss.logsumexp(q_minus_max_q, axis=-1))
        return max_q + log_scaled_A

    def nat_to_exp(self, q: RealTensor) -> RealTensor:
        max_q = jnp.maximum(0.0, jnp.amax(q, axis=-1))
        q_minus_max_q = q - max_q[..., np.newaxis]
        log_scaled_A = jnp.logaddexp(
            -max_q, jss.logsumexp(q_minus_max_q, axis=-1))
        return jnp.exp(q_minus_max_q
                       - log_scaled_A[..., np.newaxis])

    def exp_to_nat(self, p: RealTensor) -> RealTensor:
        p_k = 1.0 - jnp.sum(p, axis=-1, keepdims=True)
        return jnp.log(p / p_k)

    def sufficient_statistics(self, x: RealTensor) -> RealTensor:
        return x


class Bernoulli(Multinomial):

    def __init__(self, **kwargs):
        super().__init__(num_parameters=1, **kwargs)

    # Overridden methods ------------------------------------------------------
    def log_normalizer(self, q: RealTensor) -> RealTensor:
        q = q[..., 0]
        return jnp.logaddexp(q, 0.0)

    def nat_to_exp(self, q: RealTensor) -> RealTensor:
        return jss.expit(q)


# --- examples/optimization.py ---
from jax import grad, jit, lax

b = Bernoulli(shape=())


def cross_entropy_loss(p, q):
    return b.cross_entropy(p, q)


gce = jit(grad(cross_entropy_loss, 1))


def body_fun(q):
    return q - gce(some_p, q) * 1e-4


def cond_fun(q):
    return jnp.sum(gce(some_p, q) ** 2) > 1e-7


# some_p are expectation parameters of a Bernoulli distribution corresponding
# to probability 0.4.
some_p = jnp.array([0.4])

# some_q are natural parameters of a Bernoulli distribution corresponding to
# log-odds 0, which is probability 0.5.
some_q = jnp.array([0.0])

# Optimize the predictive distribution iteratively.
print(lax.while_loop(cond_fun, body_fun, some_q))
# Outputs the natural parameters that correspond to 0.4.

# Compare with the true value.
print(b.exp_to_nat(some_p))
for step in range(4):  # scaffolding: repeated calls on the module-level instance
    some_q = some_q - gce(some_p, some_q)
    print(b.cross_entropy(some_p, some_q))
_report({"jit(cross_entropy_loss)", "jit(cross_entropy)"}, 8)
