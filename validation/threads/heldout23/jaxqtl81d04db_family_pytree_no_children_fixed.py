# source: https://github.com/mancusolab/jaxqtl/commit/81d04dbb96c758b83bd353767dd23f25ebe26e06
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: After the commit the family flattens to no children and validates unconditionally on concrete links, so the jitted step compiles once.
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



from abc import ABC, abstractmethod

from typing import List, Tuple



import jax

import jax.numpy as jnp

import jax.scipy.stats as jaxstats

import numpy as np

from jax import Array

from jax.tree_util import register_pytree_node, register_pytree_node_class

from jax.typing import ArrayLike

from typing_extensions import Self





# jaxqtl/families/links.py (Link and Identity)
@register_pytree_node_class
class Link(ABC):

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        register_pytree_node(cls, cls.tree_flatten, cls.tree_unflatten)

    @abstractmethod
    def __call__(self, mu: ArrayLike) -> Array:
        pass

    @abstractmethod
    def inverse(self, eta: ArrayLike) -> Array:
        pass

    @abstractmethod
    def deriv(self, mu: ArrayLike) -> Array:
        pass

    @abstractmethod
    def inverse_deriv(self, eta: ArrayLike) -> Array:
        pass

    def tree_flatten(self):
        children = ()
        aux = ()
        return children, aux

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


class Identity(Link):
    def __init__(self):
        super(Identity, self).__init__()

    def __call__(self, mu: ArrayLike) -> Array:
        return mu

    def inverse(self, eta: ArrayLike) -> Array:
        return eta

    def deriv(self, mu: ArrayLike) -> Array:
        return jnp.ones_like(mu)

    def inverse_deriv(self, eta: ArrayLike) -> Array:
        return jnp.ones_like(eta)


# jaxqtl/families/distribution.py (ExponentialFamily and Gaussian)
@register_pytree_node_class
class ExponentialFamily(ABC):

    _links: List[Self]  # type: ignore

    def __init__(self, glink: Link):
        if not any([isinstance(glink, link) for link in self._links]):
            raise ValueError(f"Link {glink} is invalid for Family {self}")
        self.glink = glink

    # def __init__(self, glink: Link, validate: bool = True):
    #     if validate:
    #         if not any([isinstance(glink, link) for link in self._links]):
    #             raise ValueError(f"Link {glink} is invalid for Family {self}")
    #     self.glink = glink

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        register_pytree_node(cls, cls.tree_flatten, cls.tree_unflatten)

    @abstractmethod
    def scale(self, X: ArrayLike, y: ArrayLike, mu: ArrayLike) -> Array:
        # phi is the dispersion parameter
        pass

    @abstractmethod
    def likelihood(self, X: ArrayLike, y: ArrayLike, eta: ArrayLike) -> Array:
        pass

    @abstractmethod
    def score(self, y: ArrayLike, eta: ArrayLike) -> Array:
        pass

    @abstractmethod
    def variance(self, mu: ArrayLike) -> Array:
        pass

    def calc_weight(
        self, X: ArrayLike, y: ArrayLike, eta: ArrayLike
    ) -> Tuple[Array, Array, Array]:
        mu_k = self.glink.inverse(eta)
        g_deriv_k = self.glink.deriv(mu_k)
        phi = self.scale(X, y, mu_k)
        V_mu = self.variance(mu_k)
        weight_k = 1 / (jnp.square(g_deriv_k) * V_mu * phi)
        return mu_k, g_deriv_k, weight_k

    def init_eta(self, y: ArrayLike) -> Array:
        return self.glink((y + y.mean()) / 2)

    def tree_flatten(self):
        children = ()
        aux = ()
        return children, aux

    # def tree_flatten(self):
    #     children = (
    #         self.glink,
    #         False,
    #     )  # validation already occurred, we shouldn't need to redo it
    #     aux = ()
    #     return children, aux

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


class Gaussian(ExponentialFamily):

    _links = [Identity]  # scaffolding: Log and Power links cut

    # def __init__(self, glink: Link = Identity(), validate: bool = True):
    #     super(Gaussian, self).__init__(glink, validate)
    def __init__(self, glink: Link = Identity()):
        super().__init__(glink)
        # super(Gaussian, self).__init__(glink)

    def random_gen(self, loc: ArrayLike, scale: ArrayLike) -> Array:
        y = np.random.normal(loc, scale)
        return y

    def scale(self, X: ArrayLike, y: ArrayLike, mu: ArrayLike) -> Array:
        resid = jnp.sum(jnp.square(mu - y))
        df = y.shape[0] - X.shape[1]
        phi = resid / df
        return phi

    def likelihood(self, X: ArrayLike, y: ArrayLike, eta: ArrayLike) -> Array:
        mu = self.glink.inverse(eta)
        phi = self.scale(X, y, mu)
        logprob = jnp.sum(jaxstats.norm.logpdf(y, mu, jnp.sqrt(phi)))
        return logprob

    def score(self, y: ArrayLike, eta: ArrayLike) -> Array:
        pass  # TODO: old implementation was broken...

    def variance(self, mu: ArrayLike) -> Array:
        return jnp.ones_like(mu)


@jax.jit
def irls_weights(X, y, family, eta):  # scaffolding: the per-iteration weight step of the IRLS solver, jitted with the family as an argument
    mu_k, g_deriv_k, weight = family.calc_weight(X, y, eta)
    return weight


rng = np.random.default_rng(0)  # scaffolding
n = 200  # scaffolding
X = jnp.asarray(np.column_stack([np.ones(n), rng.binomial(2, 0.3, n)]))  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for gene in range(3):  # scaffolding: one fit per gene
        y = X @ jnp.array([[1.0], [0.5 * gene]]) + jnp.asarray(rng.normal(size=(n, 1)))  # scaffolding
        family = Gaussian()  # scaffolding
        irls_weights(X, y, family, family.init_eta(y)).block_until_ready()  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(irls_weights)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
