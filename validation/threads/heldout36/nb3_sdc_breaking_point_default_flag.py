# source: https://github.com/VLSF/SDC_notebooks/blob/b4cb98fad27ed6fe460083a94708edaa462d7592/datasets/Collecting%20datasets.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 13
# why: utils.breaking_point is @jit and branches in Python on its argument `appended` (`len(x)//2 if appended`), but the notebook never passes it, so the default True stays a Python constant, the loop bound comes from the static length of x, and it compiles once for all 13 calls.

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
# --- VLSF/SDC @247ec2d: misc/utils.py (breaking-point helpers) ---
import jax.numpy as jnp
from jax import random, jit, config
config.update("jax_enable_x64", True)

def compute_sums(x, y):
    x_s, y_s = jnp.sum(x), jnp.sum(y)
    x2_s, xy_s = jnp.sum(x**2), jnp.sum(y*x)
    return x_s, y_s, x2_s, xy_s

def recompute_sums(left_sums, right_sums, x, y, i):
    x_s_l, y_s_l, x2_s_l, xy_s_l = left_sums
    x_s_r, y_s_r, x2_s_r, xy_s_r = right_sums

    Deltas = [x[i], y[i], x[i]**2, x[i]*y[i]]

    left_sums = [l+delta for l, delta in zip(left_sums, Deltas)]
    right_sums = [l-delta for l, delta in zip(right_sums, Deltas)]

    return left_sums, right_sums

def linear_fit(sums, N):
    x_s, y_s, x2_s, xy_s = sums
    det_A = x2_s - x_s**2/N
    A = jnp.array([[N, -x_s], [-x_s, x2_s]])/det_A
    b = jnp.array([xy_s/N, y_s/N])
    return A @ b

def preprocess_trajectory(y, appended=True):
    y = jnp.log10(y)
    if appended:
        y = jnp.hstack([y, jnp.array([y[-1]]*len(y))])  # scaffolding: jax 0.10.2 rejects the bare list [y[-1]]*len(y) inside hstack
    return y

def fit_residual(x, y, sums, N):
    a, b = linear_fit(sums, N)
    return jnp.linalg.norm(y - a*x - b)

@jit
def breaking_point(x, y, appended=True):
    e = []
    lim = len(x)//2 if appended else len(x)-1
    N = len(x)
    left_sums = compute_sums(x[:2], y[:2])
    right_sums = compute_sums(x[2:], y[2:])
    for i in range(2, lim):
        e.append(fit_residual(x[:i], y[:i], left_sums, i) + fit_residual(x[i:], y[i:], right_sums, N-i))
        left_sums, right_sums = recompute_sums(left_sums, right_sums, x, y, i)
    return 2 + jnp.argmin(jnp.array(e))

from types import SimpleNamespace  # scaffolding
utils = SimpleNamespace(preprocess_trajectory=preprocess_trajectory, breaking_point=breaking_point)  # scaffolding

# --- notebook datasets/Collecting datasets.ipynb (VLSF/SDC_notebooks) ---
# (cells 5-19 build Res_sdc / Res_aa, the residual histories of 40 SDC and Anderson-accelerated sweeps, with
#  generate_dataset.generate_trajectory; stand-ins with the same layout follow)
_k1, _k2 = random.split(random.PRNGKey(0))  # scaffolding
_it = jnp.arange(21)[:, None]  # scaffolding
Res_sdc = 10.0 ** (-0.3 * jnp.minimum(_it, 14) + 0.1 * random.normal(_k1, (21, 6)))  # scaffolding
Res_aa = 10.0 ** (-0.5 * jnp.minimum(_it, 8) + 0.1 * random.normal(_k2, (21, 6)))  # scaffolding
# cell 21
y = utils.preprocess_trajectory(Res_sdc[:, 0])
x = jnp.arange(len(y))
M = utils.breaking_point(x, y)
# cell 23
Deltas = []
x = jnp.arange(len(utils.preprocess_trajectory(Res_aa[:, 0])))

for i in range(Res_sdc.shape[1]):

  N = [utils.breaking_point(x, utils.preprocess_trajectory(y)) for y in [Res_sdc[:, i], Res_aa[:, i]]]
  delta = (N[0] - N[1]) / N[0]

  Deltas.append(delta)

Deltas = jnp.hstack(Deltas) * 100
print(M, Deltas)
_report({"jit(breaking_point)"}, 1 + 2 * Res_sdc.shape[1])  # scaffolding
