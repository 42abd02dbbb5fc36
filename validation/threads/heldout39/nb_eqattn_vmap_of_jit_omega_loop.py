# source: https://github.com/Daniel-Packer/equivariant-attention/blob/8307c1df87fae6e22ea84cdf81a4d02a33835b18/properties/encoding_moduli_of_continuity.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 23
# why: omega is a jitted lambda that is vmapped (un-jitted) and called for every radius and encoding method in a nested loop; the batched jit is cached on omega and the distance matrices keep one shape, so it compiles once for all calls.

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
# cell 0
# (%load_ext autoreload, CUDA_VISIBLE_DEVICES and %cd .. cut: scaffolding)

# cell 1
# from models import vanilla_attention, positional_encodings  (scaffolding: replaced by the stand-in below)
import types  # scaffolding
import jax.numpy as jnp
import jax
# from matplotlib import pyplot as plt, axes  (scaffolding: matplotlib not installed; stand-ins below)


def _positional_encoding(v, method="trig"):  # scaffolding: models/positional_encodings.py, the cases used here
    if len(v.shape) == 1:  # scaffolding
        v = v[None, :]  # scaffolding
    if method == "trig":  # scaffolding
        norm_v = jnp.linalg.norm(v, axis=-1)  # scaffolding
        return jnp.concatenate([v / norm_v[:, None], jnp.stack([jnp.cos(norm_v), jnp.sin(norm_v)], axis=-1)], axis=-1)  # scaffolding
    if method == "inv_proj":  # scaffolding
        norm_v = jnp.linalg.norm(v, axis=-1)  # scaffolding
        return jnp.concatenate([v, jnp.sqrt(1 - jnp.square(norm_v))[:, None]], axis=-1)  # scaffolding
    if method == "fold":  # scaffolding
        v_lift = jnp.concatenate([v, jnp.ones(v.shape[0])[:, None]], axis=-1)  # scaffolding
        return v_lift / jnp.linalg.norm(v_lift, axis=-1)[:, None]  # scaffolding
    s_sq = jnp.sum(v * v, axis=-1)  # scaffolding: "stereographic"
    return jnp.concatenate([2 * v, (jnp.full(v.shape[0], s_sq - 1))[:, None]], axis=-1) / (s_sq + 1)[:, None]  # scaffolding


def _uniform_ball_samples(rng, N, d, r):  # scaffolding: models/positional_encodings.py
    inputs = jax.random.normal(rng, shape=[N, d])  # scaffolding
    inputs /= jnp.linalg.norm(inputs, axis=-1)[:, None]  # scaffolding
    radii = jnp.power(jax.random.uniform(rng, minval=0., maxval=jnp.power(r, d), shape=[N]), 1 / d)  # scaffolding
    return inputs * radii[:, None]  # scaffolding


positional_encodings = types.SimpleNamespace(positional_encoding=_positional_encoding, uniform_ball_samples=_uniform_ball_samples)  # scaffolding


class _Ax:  # scaffolding: matplotlib Axes stand-in
    def plot(self, *a, **k): pass  # scaffolding
    def set(self, *a, **k): pass  # scaffolding
    def legend(self, *a, **k): pass  # scaffolding


class _Axs(list):  # scaffolding
    def flatten(self): return self  # scaffolding


axes = types.SimpleNamespace(Axes=_Ax)  # scaffolding
plt = types.SimpleNamespace(subplots=lambda r, c, figsize=None: (None, _Axs(_Ax() for _ in range(r * c))), show=lambda: None)  # scaffolding
_CALLS = [0]  # scaffolding

rng = jax.random.PRNGKey(seed=1)
rngs = jax.random.split(rng, 10)

pairwise_dists = lambda X : jnp.linalg.norm(X[:, None, :] - X[None, :, :], axis = -1)
omega = jax.jit(lambda delta, orig_dists, enc_dists : jnp.max(orig_dists * (enc_dists <= delta), initial = 0.))
batched_omega = jax.vmap(omega, in_axes=(0, None, None))

def plot_omega(domain: jnp.ndarray, method: str, ax: axes.Axes):
  encoded_domain = positional_encodings.positional_encoding(domain, method = method)
  original_distances = pairwise_dists(domain)
  encoded_distances = pairwise_dists(encoded_domain)
  deltas = jnp.linspace(0.01, 1, num = 100)
  omega_values = batched_omega(deltas, original_distances, encoded_distances)
  _CALLS[0] += 1  # scaffolding
  ax.plot(deltas, omega_values, label = method)

# cell 2
methods = ["trig", "inv_proj", "fold", "stereographic"]
large_r_methods = ["trig", "fold", "stereographic"]
rs = [0.2, 0.4, 0.6, 0.8, 1.0, 1.2]
n_samples = 300  # scaffolding: 10_000 in the notebook (a 10k x 10k distance matrix)
d = 4

n_cols = 2
n_rows = int(jnp.ceil(len(rs) / n_cols))
fig, axs = plt.subplots(n_rows, n_cols, figsize=(8 * n_cols, 6 * n_rows))
axs = axs.flatten()

for i, r in enumerate(rs):
  X_ball = positional_encodings.uniform_ball_samples(rngs[4], n_samples, d, r)
  methods_to_plot = methods if r <= 1.0 else large_r_methods
  for method in methods_to_plot:
    plot_omega(X_ball, method, axs[i])

  axs[i].set(title = f"\u03c9 for decodings, r={r}")
  axs[i].legend()
plt.show()

_report({"jit(<lambda>)"}, _CALLS[0])  # scaffolding
