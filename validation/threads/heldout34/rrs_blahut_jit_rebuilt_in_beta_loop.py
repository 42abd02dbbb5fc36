# source: https://github.com/maxtaylordavies/resource-rational-stereotyping/blob/a303b5e4db37bf4bf77af4daddb8bb8fe5a4faa3/main.py
# expect: none
# runtime: COMPILES 1 CALLS 84
# why: jax.jit(blahut_arimoto, static_argnums=(3,)) is rebuilt on every (seed, beta) iteration, but blahut_arimoto is a module-level function, max_steps (passed by keyword, static) never changes and beta is always a 0-d float32 array, so jax's cache serves every call after the first compile.

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
from itertools import product
from typing import Dict

import jax
import jax.numpy as jnp
import jax.random as jr
from jax.scipy.special import rel_entr


# --- src/utils.py ---
@jax.jit
def entropy(p: jax.Array) -> jax.Array:
    """
    Compute the entropy of a probability distribution.

    Args:
        p: The probability distribution.

    Returns:
        The entropy of the distribution.
    """
    return -jnp.sum(p * jnp.log2(p) * (p > 0))

@jax.jit
def kl(p: jax.Array, q: jax.Array) -> jax.Array:
    """
    Compute the Kullback-Leibler divergence between two probability distributions.

    Args:
        p: The first probability distribution.
        q: The second probability distribution.

    Returns:
        The Kullback-Leibler divergence between the two distributions.
    """
    return jnp.sum(rel_entr(p, q))

def _mi(dists, x, y) -> jax.Array:
    """
    Compute the mutual information between two probability distributions.

    Args:
        dists: A dictionary of probability distributions
        p: The name of the first variable
        q: The name of the second variable

    Returns:
        The mutual information between the two distributions.
    """
    return entropy(dists[f"p_{x}"]) + entropy(dists[f"p_{y}"]) - entropy(dists[f"p_{x}{y}"])

mi = jax.jit(_mi, static_argnums=(1, 2))


# --- src/blahut_arimoto.py ---
@jax.jit
def distortion(dists: Dict[str, jax.Array], x, z):
    return kl(dists["p_y_x"][x], dists["p_y_z"][z])

@jax.jit
def do_blahut_arimoto_iteration(supports: Dict[str, jax.Array], dists: Dict[str, jax.Array], beta: float):
    """
    Perform one iteration of the Blahut-Arimoto algorithm.

    Args:
        supports: The support sets for the variables in the model.
        dists: A dictionary of probability distributions.
        beta: The lagrange multiplier for the distortion term.

    Returns:
        dists: A dictionary of updated probability distributions.
        e_d: The expected distortion under the current distribution p(x,z).
    """
    n_x, n_z = len(supports["x"]), len(supports["z"])

    ##### STEP 1: Update p(z|x) #####
    # first use vmap to compute the distortions for all s,x,z
    d_func = lambda x, z: distortion(dists, x, z)
    distortions = jax.vmap(
        jax.vmap(d_func, in_axes=(None, 0)),
        in_axes=(0, None)
    )(jnp.arange(n_x), jnp.arange(n_z))

    # compute the expected distortion under p(x,z)
    dists["p_xz"] = dists["p_x"] * dists["p_z_x"]
    dists["p_xz"] /= dists["p_xz"].sum()
    e_d = jnp.mean(dists["p_xz"] * distortions)

    # update p(z|x) = p(z) * exp(-beta * distortion)
    dists["p_z_x"] = dists["p_z"] * jnp.exp(-beta * distortions)
    dists["p_z_x"] /= jnp.sum(dists["p_z_x"], axis=1)[:,None]

    ##### STEP 2: Update p(z) #####
    dists["p_z"] = dists["p_z_x"].T @ dists["p_x"]
    dists["p_z"] /= jnp.sum(dists["p_z"])

    ##### STEP 3: Update p(y|z) by marginalising over x #####
    # first compute p(x|z) via Bayes' rule
    dists["p_x_z"] = ((dists["p_z_x"] * dists["p_x"][:, None]) / dists["p_z"][None, :]).T
    dists["p_x_z"] = jnp.nan_to_num(dists["p_x_z"], nan=1e-9)
    dists["p_x_z"] /= jnp.sum(dists["p_x_z"], axis=1)[:, None]

    # then compute p(y|z) = sum_x p(y|x)p(x|z)
    dists["p_y_z"] = jnp.einsum('xy,zx->zy', dists["p_y_x"], dists["p_x_z"])
    dists["p_y_z"] /= jnp.sum(dists["p_y_z"], axis=1)[:, None]

    # return all the modified distributions
    return dists, e_d

def blahut_arimoto(supports: Dict[str, jax.Array], dists: Dict[str, jax.Array], beta: float, max_steps: int = 100, tol: float = 1e-9):
    """
    Implements the Blahut-Arimoto algorithm.

    Args:
        supports: The support sets for the variables in the model.
        dists: A dictionary of probability distributions.
        beta: The lagrange multiplier for the distortion term.
        n_steps: The number of iterations to run the algorithm for.

    Returns:
        dists: A dictionary of updated probability distributions.
        e_ds: The expected distortion over time.
    """
    e_ds = jnp.zeros(max_steps)

    # use jax.lax.while_loop to run the algorithm up to a maximum number of steps
    # and until the expected distortion converges
    def cond_fun(args):
        dists, e_d, prev_e_d, e_ds, step = args
        return jnp.logical_and(step < max_steps, jnp.abs(e_d - prev_e_d) > tol)

    def body_fun(args):
        dists, e_d, prev_e_d, e_ds, step = args
        dists, new_e_d = do_blahut_arimoto_iteration(supports, dists, beta)
        e_ds = e_ds.at[step].set(new_e_d)
        return dists, new_e_d, e_d, e_ds, step + 1

    dists, _, _, e_ds, step = jax.lax.while_loop(cond_fun, body_fun, (dists, 0.0, 100.0, e_ds, 0))
    return dists, e_ds, step


# --- main.py ---
@jax.jit
def p_w_g(w, g, group_means, group_cov):
    return jax.scipy.stats.multivariate_normal.pdf(w, mean=group_means[g], cov=group_cov)

@jax.jit
def p_c_w(c, w, choice_beta):
    n = jnp.sum(c)
    p = p_y_w(w, choice_beta)
    return jax.scipy.stats.multinomial.pmf(c, n, p)

@jax.jit
def p_c_g(c, g, w_support, group_means, group_cov, choice_beta):
    p = 0
    for w in w_support:
        p += p_w_g(w, g, group_means, group_cov) * p_c_w(c, w, choice_beta)
    return p

@jax.jit
def p_y_w(w, beta):
    probs = jnp.exp(w / beta)
    return probs / jnp.sum(probs)

def init_supports(n_groups, n_foods, n_hist, w_min, w_max, w_steps):
    supports = {
        "g": jnp.arange(n_groups),
        "w_i": jnp.linspace(w_min, w_max, w_steps),
        "y": jnp.arange(n_foods)
    }
    supports["w"] = jnp.array([[w1, w2, w3] for w1 in supports["w_i"] for w2 in supports["w_i"] for w3 in supports["w_i"]])

    c_i = list(range(n_hist + 1))
    tmp = [x for x in product(c_i, c_i, c_i) if sum(x) == n_hist]
    supports["c"] = jnp.array(tmp)

    supports["x"] = jnp.array([
        [c[0], c[1], c[2], g] for c in supports["c"] for g in supports["g"]
    ])
    supports["x_c"] = jnp.array([x[:3] for x in supports["x"]])
    supports["x_g"] = jnp.array([x[3] for x in supports["x"]]).astype(int)

    supports["z"] = jnp.arange(len(supports["x"]))

    return supports

@jax.jit
def init_dists(key, supports, mu, sigma, rho, choice_beta):
    n_groups, n_x, n_y, n_z = len(supports["g"]), len(supports["x"]), len(supports["y"]), len(supports["z"])

    # sample group means
    cov = sigma * jnp.eye(len(mu))
    group_means = jr.multivariate_normal(key, mu, cov, (n_groups,))
    group_cov = rho * cov

    dists = {"p_g": jnp.ones((n_groups)) / n_groups}

    dists["p_w_g"] = jax.vmap(
        lambda g: jax.vmap(
            lambda w: p_w_g(w, g, group_means, group_cov),
            in_axes=(0)
        )(supports["w"]), in_axes=(0)
    )(supports["g"])
    dists["p_w_g"] /= jnp.sum(dists["p_w_g"], axis=1)[:,None]

    dists["p_w"] = dists["p_w_g"].T @ dists["p_g"]
    dists["p_w"] /= jnp.sum(dists["p_w"])

    dists["p_c_w"] = jax.vmap(
        lambda w: jax.vmap(
            lambda c: p_c_w(c, w, choice_beta),
            in_axes=(0)
        )(supports["c"]), in_axes=(0)
    )(supports["w"])
    dists["p_c_w"] /= jnp.sum(dists["p_c_w"], axis=1)[:,None]

    dists["p_c_g"] = jnp.einsum('wc,gw->gc', dists["p_c_w"], dists["p_w_g"])
    dists["p_c_g"] /= jnp.sum(dists["p_c_g"], axis=1)[:,None]

    dists["p_c"] = dists["p_c_g"].T @ dists["p_g"]
    dists["p_c"] /= jnp.sum(dists["p_c"])

    dists["p_g_c"] = (dists["p_c_g"].T * dists["p_g"]) / dists["p_c"][:, None]
    dists["p_g_c"] /= jnp.sum(dists["p_g_c"], axis=1)[:, None]

    dists["p_w_c"] = (dists["p_c_w"].T * dists["p_w"]) / dists["p_c"][:, None]
    dists["p_w_c"] /= jnp.sum(dists["p_w_c"], axis=1)[:, None]

    dists["p_x_g"] = jnp.repeat(dists["p_c_g"], n_groups, axis=1)
    dists["p_x_g"] /= jnp.sum(dists["p_x_g"], axis=1)[:,None]

    dists["p_x"] = dists["p_x_g"].T @ dists["p_g"]
    dists["p_x"] /= jnp.sum(dists["p_x"])

    dists["p_z"] = jnp.ones((n_z)) / n_z

    dists["p_y_w"] = jax.vmap(
        lambda w: p_y_w(w, choice_beta),
        in_axes=(0)
    )(supports["w"])

    dists["p_y_c"] = jnp.einsum('wy,cw->cy', dists["p_y_w"], dists["p_w_c"])
    dists["p_y_c"] /= jnp.sum(dists["p_y_c"], axis=1)[:, None]

    dists["p_y_x"] = jnp.repeat(dists["p_y_c"], n_groups, axis=0)

    dists["p_y_g"] = jnp.einsum('xy,gx->gy', dists["p_y_x"], dists["p_x_g"])
    dists["p_y_g"] /= jnp.sum(dists["p_y_g"], axis=1)[:,None]

    # initialise p(z|s) and p(z|x) as uniform
    dists["p_z_x"] = jnp.ones((n_x, n_z)) / n_z

    # initialise p(y|z) with random values
    dists["p_y_z"] = jr.uniform(key, (n_z, n_y))
    dists["p_y_z"] /= jnp.sum(dists["p_y_z"], axis=1)[:, None]

    dists["p_x_z"] = jnp.zeros((n_z, n_x))
    dists["p_xz"] = jnp.zeros((n_x, n_z))

    return dists

@jax.jit
def compute_mis(supports: Dict[str, jax.Array], dists: Dict[str, jax.Array]):
    ##### STEP 1: COMPUTE I(Z;X) #####
    dists["p_xz"] = dists["p_x"][:,None] * dists["p_z_x"]
    dists["p_xz"] /= jnp.sum(dists["p_xz"])
    i_xz = mi(dists, "x", "z")

    ##### STEP 2: COMPUTE I(Z;Y) #####
    dists["p_y"] = dists["p_y_x"].T @ dists["p_x"]
    dists["p_y"] /= jnp.sum(dists["p_y"])
    dists["p_y_z"] = jnp.einsum('xy,zx->zy', dists["p_y_x"], dists["p_x_z"])
    dists["p_y_z"] /= jnp.sum(dists["p_y_z"], axis=1)[:, None]
    dists["p_yz"] = dists["p_y_z"] * dists["p_z"][:,None]
    dists["p_yz"] /= jnp.sum(dists["p_yz"])
    i_yz = mi(dists, "y", "z")

    ##### STEP 3: COMPUTE I(Z;C) #####
    # first, compute p(x|c) = p(g|c) * delta(x[:3],c)
    delta_c_x = jnp.array([
        jnp.all(supports["x_c"] == c, axis=1) for c in supports["c"]
    ])
    dists["p_x_c"] = delta_c_x * dists["p_g_c"][:, supports["x_g"]]
    dists["p_x_c"] /= jnp.sum(dists["p_x_c"], axis=1)[:, None]
    # then use it to compute p(z|w) by marginalising over x
    dists["p_z_c"] = jnp.einsum('xz,cx->cz', dists["p_z_x"], dists["p_x_c"])
    dists["p_z_c"] /= jnp.sum(dists["p_z_c"], axis=1)[:, None]
    # finally, compute p(w,z) and I(W;Z)
    dists["p_cz"] = dists["p_c"][:, None] * dists["p_z_c"]
    dists["p_cz"] /= jnp.sum(dists["p_cz"])
    i_cz = mi(dists, "c", "z")

    ##### STEP 4: COMPUTE I(Z;G) #####
    # first, compute p(z|g) = sum_x p(z|x)p(x|g)
    dists["p_z_g"] = jnp.einsum('xz,gx->gz', dists["p_z_x"], dists["p_x_g"])
    dists["p_z_g"] /= jnp.sum(dists["p_z_g"], axis=1)[:, None]
    # then compute p(g,z) and I(G;Z)
    dists["p_gz"] = dists["p_g"][:, None] * dists["p_z_g"]
    dists["p_gz"] /= jnp.sum(dists["p_gz"])
    i_gz = mi(dists, "g", "z")

    ##### STEP 5: NORMALISE ALL MI VALUES #####
    # normalise I(X;Z) by the ceiling H(X)
    i_xz /= entropy(dists["p_x"])
    # normalise I(Y;Z) by the ceiling I(Y;X)
    dists["p_yx"] = dists["p_y_x"] * dists["p_x"][:,None]
    dists["p_yx"] /= jnp.sum(dists["p_yx"])
    i_yz /= mi(dists, "y", "x")
    # normalise I(C;Z) by the ceiling H(C)
    i_cz /= entropy(dists["p_c"])
    # normalise I(G;Z) by the ceiling H(G)
    i_gz /= entropy(dists["p_g"])

    return i_xz, i_yz, i_cz, i_gz

def run_for_params(
    n_seeds: int,
    n_groups: int,
    n_hist: int,
    mu: jax.Array,
    sigma: float,
    rho: float,
    w_min: float,
    w_max: float,
    w_steps: int,
    choice_beta: float,
    betas: jax.Array,
    max_steps=50
):
    data, supports = [], init_supports(n_groups, n_foods, n_hist, w_min, w_max, w_steps)

    for seed in range(n_seeds):
        key = jr.PRNGKey(seed)
        dists = init_dists(key, supports, mu, sigma, rho, choice_beta)
        for beta in sorted(betas)[::-1]:
            dists, e_ds, steps_run = jax.jit(blahut_arimoto, static_argnums=(3,))(supports, dists, beta, max_steps=max_steps)
            i_xz, i_yz, i_cz, i_gz = compute_mis(supports, dists)
            data.append({
                "rho": rho,
                "seed": seed,
                "beta": float(beta),
                "choice_beta": choice_beta,
                "distortion": float(e_ds[steps_run-1]),
                "i_xz": float(i_xz),
                "i_yz": float(i_yz),
                "i_cz": float(i_cz),
                "i_gz": float(i_gz)
            })
    return data  # scaffolding: pandas DataFrame dropped

n_seeds, n_groups, n_foods, n_hist = 2, 3, 3, 4  # scaffolding: n_seeds 50 -> 2, n_hist 15 -> 4
choice_beta = 0.25
w_min, w_max, w_steps = -4.0, 4.0, 5  # scaffolding: w_steps 41 -> 5
betas = jnp.array([2**x for x in jnp.arange(-1, 9.5, 0.5)])
mu, sigma = jnp.zeros(n_foods), 1.0
rhos = [0.01, 1.0]  # scaffolding: 7 values -> 2
rhos_subset = [0.01, 0.1, 1.0, 10.0]

# --- main.py driver (plots, tqdm and pandas are scaffolding-cut) ---
data = []  # scaffolding
for rho in rhos:
    _data = run_for_params(
        n_seeds,
        n_groups,
        n_hist,
        mu,
        sigma,
        rho,
        w_min,
        w_max,
        w_steps,
        choice_beta,
        betas,
        max_steps=50
    )
    data = data + _data  # scaffolding: pd.concat
_report({"jit(blahut_arimoto)"}, len(data))  # scaffolding
