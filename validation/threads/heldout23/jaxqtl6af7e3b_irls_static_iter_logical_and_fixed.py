# source: https://github.com/mancusolab/jaxqtl/commit/6af7e3bf0a6014a302d3bb653a026f85304efa45
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: After the commit max_iter and tol are static_argnames and converged uses jnp.logical_and, so the three fits compile once.
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

from functools import partial

from typing import List, NamedTuple, Tuple



import jax

import jax.numpy as jnp

import jax.numpy.linalg as jnpla

import jax.scipy.linalg as jspla

import jax.scipy.stats as jaxstats

import numpy as np

from jax import Array, lax

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


# jaxqtl/infer/solve.py (LinearSolve and QRSolve)
@register_pytree_node_class
class LinearSolve(ABC):

    @abstractmethod
    def __call__(
        self,
        X: jnp.ndarray,
        y: jnp.ndarray,
        eta: jnp.ndarray,
        family: ExponentialFamily,
    ) -> jnp.ndarray:
        pass

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        register_pytree_node(cls, cls.tree_flatten, cls.tree_unflatten)

    def tree_flatten(self):
        children = ()
        aux = ()
        return children, aux

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls()


class QRSolve(LinearSolve):
    def __call__(
        self,
        X: jnp.ndarray,
        y: jnp.ndarray,
        eta: jnp.ndarray,
        family: ExponentialFamily,
    ) -> jnp.ndarray:

        mu_k, g_deriv_k, weight = family.calc_weight(X, y, eta)

        w_half = jnp.sqrt(weight)
        r = eta + g_deriv_k * (y - mu_k)
        w_r = w_half * r
        w_X = w_half * X

        Q, R = jnpla.qr(w_X)

        return jspla.solve_triangular(R, Q.T @ w_r)


# jaxqtl/infer/optimize.py
class IRLSState(NamedTuple):
    beta: jnp.ndarray
    num_iters: int
    converged: bool


@partial(jax.jit, static_argnames=["max_iter", "tol"])
def irls(
    X: jnp.ndarray,
    y: jnp.ndarray,
    family: ExponentialFamily,
    solver: LinearSolve,
    eta: jnp.ndarray,
    max_iter: int = 1000,
    tol: float = 1e-3,
) -> IRLSState:
    def body_fun(val: Tuple):
        diff, num_iter, beta_o, eta_o = val
        beta = solver(X, y, eta_o, family)
        eta_n = X @ beta
        likelihood_o = family.likelihood(X, y, eta_o)
        likelihood_n = family.likelihood(X, y, eta_n)
        diff = likelihood_n - likelihood_o

        return diff, num_iter + 1, beta, eta_n

    def cond_fun(val: Tuple):
        diff, num_iter, beta, eta = val
        cond_l = jnp.logical_and(jnp.fabs(diff) > tol, num_iter <= max_iter)
        return cond_l

    init_beta = jnp.zeros((X.shape[1], 1))
    init_tuple = (10000.0, 0, init_beta, eta)

    diff, num_iters, beta, eta = lax.while_loop(cond_fun, body_fun, init_tuple)
    converged = jnp.logical_and(jnp.fabs(diff) > tol, num_iters <= max_iter)

    return IRLSState(beta, num_iters, converged)


rng = np.random.default_rng(0)  # scaffolding: one genotype design and a few gene expression vectors
n, p = 200, 2  # scaffolding
X = jnp.asarray(np.column_stack([np.ones(n), rng.binomial(2, 0.3, n)]))  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for gene in range(3):  # scaffolding: GLM.fit for each gene, as in glm.py
        y = X @ jnp.array([[1.0], [0.5 * gene]]) + jnp.asarray(rng.normal(size=(n, 1)))  # scaffolding
        family, solver = Gaussian(), QRSolve()  # scaffolding
        init = family.init_eta(y)  # scaffolding
        beta, n_iter, converged = irls(X, y, family, solver, init, 1000, 1e-3)  # scaffolding: the GLM.fit call
        calls += 1  # scaffolding
    _report({"jit(irls)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
