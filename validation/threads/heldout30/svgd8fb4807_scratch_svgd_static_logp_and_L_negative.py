# source: https://github.com/ratschlab/projects-2020-Neural-SVGD/blob/8fb48072ef047bf369c194cf21a356fb227c6810/Scratch.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: svgd is jitted with the target logp (a jitted function, hashed by identity) and the iteration count L static; the timing loop passes the same logp and L every time, so it compiles once for the 5 calls.
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
# cell 1
import jax.numpy as np
from jax import grad, jit, vmap, random, lax
from jax import lax
# from jax.ops import index_update, index  # scaffolding: jax.ops.index_update/index were removed from JAX; stand-ins below
# import matplotlib.pyplot as plt  # scaffolding: matplotlib is not installed

# import utils  # scaffolding: the one helper used (utils.ard) is inlined below

import time

rkey = random.PRNGKey(0)


def index_update(x, idx, y):  # scaffolding: the removed jax.ops.index_update
    return x.at[idx].set(y)  # scaffolding


index = np.index_exp  # scaffolding: the removed jax.ops.index


# ---- utils.py at 8fb4807 (imported by svgd.py) ----
def ard(x, y, h):
    """
    IN:
    * x, y: np arrays of shape (d,)
    * h: np array of shape (d,), or scalar

    OUT:
    scalar kernel(x, y, h).
    """
    x, y = np.array([x, y])
    assert x.ndim <= 1
    assert y.ndim <= 1

    h = np.array(h)
    assert h.ndim == 1 or h.ndim == 0
    assert x.shape == y.shape
    if h.ndim == 1:
        assert x.shape == h.shape
    return np.exp(- np.sum((x - y)**2 / h**2) / 2)


# ---- svgd.py at 8fb4807 (what cell 44 imports) ----
def phistar_j(x, y, logp, bandwidth):
    """Individual summand needed to compute phi^*. That is, phistar_i = \sum_j phistar_j(xj, xi, logp, bandwidth)"""
    kernel = lambda x, y: ard(x, y, bandwidth)
    return grad(logp)(x) * kernel(x, y) + grad(kernel)(x, y)

def phistar_i(xi, x, logp, bandwidth):
    """
    Arguments:
    * xi: np.array of shape (1, d), meant to be a row element of x
    * x: np.array of shape (n, d)
    * logp: callable
    * bandwidth: scalar or np.array of shape (d,)

    Returns:
    * \phi^*(xi) estimated using the particles x
    """
    if xi.ndim == 1:
        xi = xi[np.newaxis, :]
    elif xi.ndim == 0:
        xi = xi[np.newaxis, np.newaxis]
    else:
        pass
    assert xi.ndim == 2

    n = x.shape[0]
    xi_rep = np.repeat(xi, n,axis=0)
    return np.sum(vmap(phistar_j, (0, 0, None, None))(x, xi_rep, logp, bandwidth), axis=0)

def phistar(x, logp, bandwidth):
    """
    Returns an np.array of shape (n, d) containing values of phi^*(x_i) for i in {1, ..., n}.
    """
    return vmap(phistar_i, (0, None, None, None))(x, x, logp, bandwidth)

def update(x, logp, stepsize, bandwidth):
    """SVGD update step
    Arguments:
    * x is an np.array of shape (n, d)
    * logp: callable, differentiable, computes log p(x)
    * stepsize: scalar
    * bandwidth: either a scalar or an np.array of shape (d,)
    """
    return x + stepsize * phistar(x, logp, bandwidth)


# cell 44
# from svgd import update  # scaffolding: inlined above
jupdate = jit(update, static_argnums=(1,)) # logp is static. When logp changes, jit recompiles.
# cell 45
# data and functions
from jax.scipy.stats import norm

@jit
def logp(x):
    """
    IN: single scalar np array x. alternatively, [x] works too
    OUT: scalar logp(x)
    """
    return np.squeeze(np.sum(norm.logpdf(x, loc=0, scale=1)))

print('logp is located at', hex(id(logp)))

n = 100
d=1
stepsize = 0.01

# L = int(1 / stepsize)
L = 10**3
# L = 1

# generate data
key = random.PRNGKey(7)
x0 = random.normal(key, (n,d)) - 10

h = 4
print('h is located at', hex(id(h))) # memory location
# cell 46
def svgd(x, stepsize, bandwidth, logp, L):
    assert x.ndim == 2

    d = x.shape[1]
    log = {
        "particle_mean": np.empty(shape=(L, d)),
        "particle_var": np.empty(shape=(L, d))
    }

    def update_fun(i, u):
        """
        1) compute updated x,
        2) log mean and var

        Parameters:
        * i: iteration counter (unused)
        * u = [x, log]

        Returns:
        [updated_x, log]
        """
        x, log = u
        x = update(x, logp, stepsize, bandwidth)

        update_dict = {
            "particle_mean": np.mean(x, axis=0),
            "particle_var": np.var(x, axis=0)
        }

        for key in log.keys():
            log[key] = index_update(log[key], index[i, :], update_dict[key])

        return [x, log]

    xout, log = lax.fori_loop(0, L, update_fun, [x, log])
    return xout, log

svgd = jit(svgd, static_argnums=(3,4))
# cell 47
m = 5  # scaffolding: 100 timing runs in the notebook
times = []
for _ in range(m):
    st = time.time()
    xout, log = svgd(x0, stepsize, h, logp, L)
    end = time.time()
    times.append(end-st)
# cell 48
print(np.mean(np.array(times)))
print()
# print(times)
_report({"jit(svgd)"}, 5)  # scaffolding
