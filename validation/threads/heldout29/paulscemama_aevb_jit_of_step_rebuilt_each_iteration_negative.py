# source: https://github.com/PaulScemama/aevb/blob/859a99b93c34eae91114fe537d32506979ec55f9/pg.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 100
# why: jax.jit(aevb_algorithm.step) is re-created on every loop iteration, but step is the same functools.partial object each time (a field of the InferenceAlgorithm NamedTuple), so the jit cache is shared and tractable_kl_step compiles once for 100 calls.
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




# ---- aevb.py (the repository's module at the same commit) ----
from typing import Union, Iterable, Mapping, Any, Callable, NamedTuple
from jax.typing import ArrayLike
from attrs import define
import jax
jax.tree_map = jax.tree_util.tree_map  # scaffolding: jax.tree_map was removed from jax; same function
import jax.numpy as jnp
from jax.random import PRNGKey
import optax
from optax import GradientTransformation, OptState
from functools import partial as bind

Array = jnp.array
from jax.tree_util import tree_leaves, tree_structure, tree_unflatten


"""
This is ported from https://github.com/blackjax-devs/blackjax/blob/main/blackjax/types.py

Following the current best practice (https://jax.readthedocs.io/en/latest/jax.typing.html)
We use:
- `ArrayLike` and `ArrayLikeTree` to annotate function input,
- `Array` and `ArrayTree` to annotate function output.
"""
ArrayTree = Union[jax.Array, Iterable["ArrayTree"], Mapping[Any, "ArrayTree"]]
ArrayLikeTree = Union[
    ArrayLike, Iterable["ArrayLikeTree"], Mapping[Any, "ArrayLikeTree"]
]
"""-------------------------------------------------------------------------------"""

"""
References:

    [1] "Auto-Encoding Variational Bayes" (Kingma & Welling, 2013)
"""

# TODO:
# - how to ensure recognition model will produce z that
# the generative model can ingest.


class AEVBState(NamedTuple):
    rec_params: ArrayLikeTree
    gen_params: ArrayLikeTree
    opt_state: OptState


class AEVBInfo(NamedTuple):
    loss: float
    nll: float
    kl: float


def init(
    rec_params: ArrayLikeTree,
    gen_params: ArrayLikeTree,
    optimizer: GradientTransformation,
) -> AEVBState:
    opt_state = optimizer.init((rec_params, gen_params))
    return AEVBState(rec_params, gen_params, opt_state)


# Useful PyTree Utility: modified from https://github.com/google-research/google-research/blob/master/bnn_hmc/utils/tree_utils.py
# to allow for `n_samples`` to be taken.
def normal_like_tree(
    rng_key: PRNGKey, tree: ArrayLikeTree, n_samples: int
) -> ArrayTree:
    treedef = tree_structure(tree)
    num_vars = len(tree_leaves(tree))
    all_keys = jax.random.split(rng_key, num=num_vars)
    noise = jax.tree_map(
        lambda p, k: jax.random.normal(k, shape=(n_samples,) + p.shape),
        tree,
        tree_unflatten(treedef, all_keys),
    )
    return noise


def normal_loglikelihood_fn(apply_fn, params, z, x):
    """Use the `params` along with the `apply_fn` to predict `x` from `z`. Then
    compute the observed data `x` under a normal distribution parameterized by the
    predicted `x` as its mean."""
    pred_x = apply_fn(params, z)
    return -((x - pred_x) ** 2)


def reparameterized_sample_loc_scale(
    rng_key: PRNGKey, loc: ArrayLikeTree, scale: ArrayLikeTree, n_samples: int
) -> ArrayTree:
    """Compute a sample from a loc-scale family distribution using the reparameterization trick."""
    noise = normal_like_tree(rng_key, loc, n_samples)
    samples = jax.tree_map(
        lambda loc, scale, noise: loc + scale * noise,
        loc,
        scale,
        noise,
    )
    return samples


def unit_normal_kl(mu, sigma):
    """As per Appendix B of [1]"""

    def kl(mu, sigma):
        mu_squared = jnp.square(mu)
        sigma_squared = jnp.square(sigma)
        return -(1 + jnp.log(sigma_squared) - mu_squared - sigma_squared) / 2

    kl_tree = jax.tree_map(kl, mu, sigma)
    kl_val = sum([param_kl.sum() for param_kl in tree_leaves(kl_tree)])
    return kl_val


def tractable_kl_step(
    rng_key: PRNGKey,
    aevb_state: AEVBState,
    x: ArrayLike,
    rec_apply_fn: Callable,
    gen_apply_fn: Callable,
    optimizer: GradientTransformation,
    n_samples: int,
) -> tuple[AEVBState, AEVBInfo]:
    """_summary_

    Args:
        rng_key (PRNGKey): _description_
        aevb_state (AEVBState): _description_
        rec_apply_fn (Callable): _description_
        gen_apply_fn (Callable): _description_
        x (ArrayLike): _description_
        optimizer (GradientTransformation): _description_
        n_samples (int): _description_

    Returns:
        tuple[AEVBState, AEVBInfo]: _description_
    """
    rec_params, gen_params = aevb_state.rec_params, aevb_state.gen_params

    def loss_fn(
        rec_params: ArrayLikeTree, gen_params: ArrayLikeTree
    ) -> tuple[float, tuple[float, float]]:
        pred_z_mu, pred_z_sigma = rec_apply_fn(rec_params, x)
        z = reparameterized_sample_loc_scale(
            rng_key, pred_z_mu, pred_z_sigma, n_samples
        )

        kl = unit_normal_kl(pred_z_mu, pred_z_sigma)
        nll = -normal_loglikelihood_fn(gen_apply_fn, gen_params, z, x)
        loss = (nll + kl).mean()
        return loss, (nll, kl)

    loss_grad_fn = jax.value_and_grad(loss_fn, has_aux=True, argnums=(0, 1))
    (loss_val, (nll, kl)), (rec_grad, gen_grad) = loss_grad_fn(rec_params, gen_params)

    (rec_updates, gen_updates), new_opt_state = optimizer.update(
        (rec_grad, gen_grad),
        aevb_state.opt_state,
        (rec_params, gen_params),
    )
    new_rec_params = optax.apply_updates(rec_params, rec_updates)
    new_gen_params = optax.apply_updates(gen_params, gen_updates)
    new_aevb_state = AEVBState(
        new_rec_params,
        new_gen_params,
        new_opt_state,
    )
    return new_aevb_state, AEVBInfo(loss_val, nll, kl)


def _sample(gen_params: ArrayLikeTree, gen_apply_fn: Callable):
    ...


class InferenceAlgorithm(NamedTuple):
    init: Callable
    step: Callable
    sample: Callable


# INTERFACE -------------------------------
@define
class AEVB:
    _init_fn = staticmethod(init)
    _step_fn = staticmethod(tractable_kl_step)
    # TODO: sample_fn: Callable[[int], ArrayLike]
    # given a number of samples, sample from generative model.
    # using z = N(0,1)

    @classmethod
    def init(
        cls,
        recognition_apply: Callable[[ArrayLikeTree, ArrayLike], ArrayLikeTree],
        generative_apply: Callable[[ArrayLikeTree, ArrayLike], ArrayLike],
        optimizer: GradientTransformation,
        n_samples: int,
    ):
        init_fn = bind(cls._init_fn, optimizer=optimizer)
        step_fn = bind(
            cls._step_fn,
            rec_apply_fn=recognition_apply,
            gen_apply_fn=generative_apply,
            optimizer=optimizer,
            n_samples=n_samples,
        )
        sample_fn = None  # FOR NOW
        return InferenceAlgorithm(init_fn, step_fn, sample_fn)


import sys  # scaffolding
sys.modules["aevb"] = sys.modules[__name__]  # scaffolding: the module above is the repository's aevb.py at the same commit; `import aevb` below gets it


# ---- pg.ipynb ----
# cell 1
import jax
import jax.numpy as jnp

from jax.random import PRNGKey, split
from jax.flatten_util import ravel_pytree

import optax
import aevb
from aevb import AEVB

# import matplotlib.pyplot as plt  # scaffolding: matplotlib not installed


class plt:  # scaffolding: no-op stand-in
    hist = plot = staticmethod(lambda *a, **k: None)  # scaffolding
# cell 2
rng_key = PRNGKey(123)

tree = {"w": jnp.array([1., 2.]), "b": jnp.array([2.])}
noise_tree = aevb.normal_like_tree(rng_key, tree, n_samples=100)
tree_1d, _ = ravel_pytree(noise_tree)

plt.hist(tree_1d)
# cell 3
apply_fn = lambda params, z: jnp.arange(-3., 3.1, .1)
x = jnp.array([0.])
out = aevb.normal_loglikelihood_fn(apply_fn, None, None, x)
plt.plot(apply_fn(None, None), out)
# cell 4
rng_key = PRNGKey(104)
loc = jnp.array([34.,])
scale = jnp.array([2.,])

out = aevb.reparameterized_sample_loc_scale(rng_key, loc, scale, 100)
out_1d, _ =  ravel_pytree(out)

plt.hist(out_1d)
# cell 5
mu = jnp.zeros((2,1))
sigma = jnp.ones((2,1))

out = aevb.unit_normal_kl(mu, sigma)
print(f"Result from ((0, 0), (1, 1)): {out}")

mu = jnp.ones((2, 1)) * 0.5
sigma = jnp.ones((2, 1)) * 1.5

out = aevb.unit_normal_kl(mu, sigma)
print(f"Result from ((0.5, 1.5, 0.5, 1.5)): {out}")

mu = jnp.ones((2, 1)) * 4
sigma = jnp.ones((2, 1)) * 5

out = aevb.unit_normal_kl(mu, sigma)
print(f"Result from ((4, 5, 4, 5)): {out}")

# cell 6
# Super simple toy problem

rng_key = PRNGKey(47)
rec_params = {"w": jnp.array([[4., 1.], [2., 2.]]), "b": jnp.array([[1.]])}
gen_params = {"w": jnp.array([[2.], [1.]]), "b": jnp.array([[1.]])}

optimizer = optax.sgd(1e-3)
opt_state = optimizer.init((rec_params, gen_params))

n_samples = 1
aevb_state = aevb.AEVBState(rec_params, gen_params, opt_state)

rec_apply_fn = lambda params, x: params['w'].T @ x + params['b']
gen_apply_fn = lambda params, x: params['w'] @ x.T + params['b']

x = jnp.array([[3.], [7.]])
rng_key = PRNGKey(33)

for _ in range(0):  # scaffolding: range(100) -> range(0); this cell passes the arguments in an older order (x fifth) than aevb.py at this commit (x third) and raises AttributeError
    aevb_state, aevb_info = aevb.tractable_kl_step(
            rng_key,
            aevb_state,
            rec_apply_fn,
            gen_apply_fn,
            x,
            optimizer,
            n_samples,
        )
    print(f"Loss: {aevb_info.loss}")

# cell 7
rng_key = PRNGKey(47)
rec_params = {"w": jnp.array([[4., 1.], [2., 2.]]), "b": jnp.array([[1.]])}
gen_params = {"w": jnp.array([[2.], [1.]]), "b": jnp.array([[1.]])}

optimizer = optax.sgd(1e-3)
opt_state = optimizer.init((rec_params, gen_params))

n_samples = 1


rec_apply_fn = lambda params, x: params['w'].T @ x + params['b']
gen_apply_fn = lambda params, x: params['w'] @ x.T + params['b']

x = jnp.array([[3.], [7.]])

aevb_algorithm = AEVB.init(rec_apply_fn, gen_apply_fn, optimizer, 1)
state = aevb_algorithm.init(rec_params, gen_params)

for _ in range(100):
    key, rng_key = split(rng_key)
    state, info = jax.jit(aevb_algorithm.step)(rng_key, state, x)
    print(f"Loss: {info.loss}")

_report({"jit(tractable_kl_step)"}, 100)  # scaffolding: jax.jit(aevb_algorithm.step) called once per iteration of cell 7
