# source: https://github.com/jaeminoh/MAS557/blob/03a0a0f6197e93ac3d0bc186f7d273d131917d3e/Homework3/problem4.py
# expect: none
# runtime: COMPILES 1 CALLS 30
# why: the jitted step closes over a jaxopt.OptaxSolver (adamw with a cosine schedule) and the global data tt, xx, uu, and threads the solver state through its arguments; the state keeps its types across updates, so step compiles once for all iterations.
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


# ---- Homework3/nn.py ----  # scaffolding: file marker
import jax.numpy as jnp
import jax.random as jr


# define MLP
def MLP(layers: list[int] = [1, 64, 1], activation: callable = jnp.tanh):
    def init_params(key):
        def _init(key, d_in, d_out):
            w = jr.normal(key, shape=(d_in, d_out)) * jnp.sqrt(2 / (d_in + d_out))
            b = jnp.zeros((d_out,))
            return [w, b]

        keys = jr.split(key, len(layers) - 1)
        params = list(map(_init, keys, layers[:-1], layers[1:]))
        return params

    def apply(params, inputs):
        for W, b in params[:-1]:
            outputs = inputs @ W + b
            inputs = activation(outputs)
        W, b = params[-1]
        outputs = inputs @ W + b
        return outputs

    return init_params, apply

# ---- Homework3/problem4.py ----  # scaffolding: file marker
import jax
import jax.numpy as jnp
import jax.random as jr
import jaxopt
# import matplotlib.pyplot as plt  # scaffolding: no plotting
import numpy as np
import optax
from tqdm import trange

# from nn import MLP  (defined above)  # scaffolding: flattened

init_tr, apply_tr = MLP([2, 32, 32, 32])  # t, x  # scaffolding: width 32 instead of 200
init_br, apply_br = MLP([64, 32, 32, 32])  # 64 sensors  # scaffolding: width 32 instead of 200


def onet(params, t, x, u):
    params_t, params_b = params
    tr = apply_tr(params_t, jnp.stack([t, x])) * (1 - x**2) * t  # zero boundary
    br = apply_br(params_b, u)
    onet = jnp.dot(tr, br)
    return onet


def onet_t(params, t, x, u):
    onet_t = jax.jacfwd(onet, 1)(params, t, x, u)
    return onet_t


def onet_x(params, t, x, u):
    onet_x = jax.jacfwd(onet, 2)(params, t, x, u)
    return onet_x


def onet_xx(params, t, x, u):
    onet_xx = jax.jacfwd(onet_x, 2)(params, t, x, u)
    return onet_xx


def vectorize(fn):
    v1 = jax.vmap(fn, (None, 0, None, None))
    v2 = jax.vmap(v1, (None, None, 0, None))
    v3 = jax.vmap(v2, (None, None, None, 0))
    return v3  # (tt, xx, uu) -> (#uu, #xx, #tt) array.


v_onet = vectorize(onet)
v_onet_t = vectorize(onet_t)
v_onet_xx = vectorize(onet_xx)


def loss(params, tt, xx, uu):
    s = v_onet(params, tt, xx, uu)
    s_t = v_onet_t(params, tt, xx, uu)
    s_xx = v_onet_xx(params, tt, xx, uu)
    loss = jnp.mean((s_t - 1e-2 * s_xx - 1e-2 * s - uu[..., None]) ** 2)
    return loss


tt = jnp.linspace(0, 1, 11)  # scaffolding: 11 time points instead of 101
xx = np.cos(np.pi * np.arange(64) / 63)  # scaffolding: 64 sensor coordinates instead of data/coordinate_x.npy
rng = jr.key(1234)
rng, key1, key2 = jr.split(rng, 3)
w1 = jr.uniform(key1, (20, 1), maxval=jnp.pi * 2)  # scaffolding: 20 input functions instead of 500
w2 = jr.uniform(key2, (20, 1), maxval=jnp.pi * 2)  # scaffolding
uu = jnp.cos(w1 * xx) + jnp.sin(w2 * xx)  # (500, 64)

# initialize
key_t, key_b = jr.split(rng)
params = [init_tr(key_t), init_br(key_b)]
# adam
nIter = 30  # scaffolding: 30 instead of 10000
lr = optax.cosine_decay_schedule(1e-3, nIter)
opt = jaxopt.OptaxSolver(loss, optax.adamw(lr), maxiter=nIter)
state = opt.init_state(params, tt, xx, uu)


@jax.jit
def step(params, state):
    params, state = opt.update(params, state, tt, xx, uu)
    return params, state, state.value


# training

loss_total = []
for it in (pbar := trange(1, 1 + nIter)):
    params, state, v = step(params, state)
    if it % 100 == 0:
        loss_total.append(v)
        pbar.set_postfix({"loss": f"{v:.3e}"})

# (evaluation against data/solution.npy and plots left out)  # scaffolding
_report({"jit(step)"}, nIter)  # scaffolding
