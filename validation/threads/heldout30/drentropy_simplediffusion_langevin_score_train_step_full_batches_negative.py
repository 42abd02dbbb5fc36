# source: https://github.com/DrEntropy/SimpleDiffusion/blob/ec7138a1b68c32b6b5ed1833a8b8458044064472/langevin_demo.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 33
# why: the training loop slices batches with range(0, len(shuffled) - batch_size, batch_size), so every batch has exactly 512 rows (the ragged tail is skipped) and the jitted train_step compiles once; the lax.scan sampling calls run once per cell.
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
from functools import partial
from collections import namedtuple

import numpy as np
# import matplotlib.pyplot as plt  # scaffolding: not installed; stand-in below
# from matplotlib import animation  # scaffolding: unused
class _PltStandIn:  # scaffolding: matplotlib is not installed; every plotting call is a no-op
    def __getattr__(self, name):  # scaffolding
        return self  # scaffolding
    def __call__(self, *args, **kwargs):  # scaffolding
        return self  # scaffolding
    def __getitem__(self, key):  # scaffolding
        return self  # scaffolding
    def __iter__(self):  # scaffolding
        return iter((self, self))  # scaffolding


plt = _PltStandIn()  # scaffolding

import jax
from jax import numpy as jnp
from jax import random
# cell 2
def gaussian(x, norm, mu, sigma):
    """Single Gaussian distribution"""
    return norm * jnp.exp(-0.5 * ((x - mu) / sigma) ** 2) / (sigma * jnp.sqrt(2 * np.pi))


def gmm(x, norm, mu, sigma):
    """Gaussian Mixture Model"""
    values = jnp.sum(gaussian(x, norm, mu, sigma), axis=0) / mu.shape[0]

    # later we compute the gradient, which requires a returning a scalar value
    if values.shape == (1,):
        return values[0]
    
    return values

# cell 3

norm, mu, sigma = jnp.array([1, 1])[:, None], jnp.array([-1, 1])[:, None], jnp.array([0.25, 0.25])[:, None]

x_plot = jnp.linspace(-2, 2, 1000)
y = gmm(x_plot, norm, mu, sigma)
ax = plt.subplot()
ax.plot(x_plot, y)
ax.set_xlabel('x')
ax.set_ylabel('p(x)')
# cell 4
n_samples_ = 6_000  # scaffolding: 500_000 in the notebook
key = random.key(33)
x_init = sigma*random.normal(key, (2, n_samples_//2,)) + mu # assumes equal 'norm', use bernoulli to sample from the two gaussians if not
ax = plt.subplot()
ax.hist(x_init.flatten(), bins=100, density=True, histtype='step', label="Initial samples");
ax.set_xlabel('$x_i$')
ax.set_ylabel('$p(x_i)$');
# cell 5
default_hist = partial(jnp.histogram, bins=100, range=(-3, 3), density=True)

batched_histogram = jax.vmap(default_hist)

def plot_trace(trace, n_traces=5, ax=None, x_min=-3, x_max=3):
    """Plot distribution at multiple points in time as trace"""
    hist_values, _ = batched_histogram(trace)    

    n_iter, n_samples = trace.shape

    ax = plt.subplot() or ax
    ax.imshow(hist_values.T[:, :], extent=[0, n_iter, x_min, x_max], aspect="auto", origin="lower")

    # plot some example traces
    key = random.PRNGKey(9823)
    for idx in random.randint(key, (n_traces,), 0, n_samples):
        ax.plot(trace[:, idx])

    ax.set_ylim(x_min, x_max)
    ax.set_xlabel("# Iteration")
    ax.set_ylabel("x")
    return ax
# cell 6
def log_gmm(x, norm, mu, sigma):
    """Log of the GMM"""
    return jnp.log(gmm(x, norm, mu, sigma))

gmm_log_part = partial(log_gmm, norm=norm, mu=mu, sigma=sigma) # the partial just simplifies not parsing the parameters later...
score_fun = jax.vmap(jax.grad(gmm_log_part))

ax = plt.subplot()
x_plot = jnp.linspace(-2, 2, 1000)
ax.plot(x_plot, score_fun(x_plot))
ax.set_xlabel('x')
ax.set_ylabel('d/dx log p(x)');
# cell 7
# JAX can natively handle "structs of arrays" or "PyTrees"
SampleArgs = namedtuple("Args", ["key", "idx", "x", "alpha_0", "p_0"])

def sample(score, args, _):
    # compute the "learning rate" depending on the iteration
    alpha = args.alpha_0 * (args.p_0 ** args.idx) ** 2

    # sample stochastic update
    key, subkey = random.split(args.key)
    dx = random.normal(subkey, args.x.shape)

    # combine the gradient and the stochastic update
    x = args.x + 0.5 * alpha * score(args.x) + jnp.sqrt(alpha) * dx
    return SampleArgs(key, args.idx + 1, x, args.alpha_0, args.p_0), x


n_samples = 2_000  # scaffolding: 100_000 in the notebook
n_iter = 100  # scaffolding: 500 in the notebook

key = random.PRNGKey(42)
key, subkey = random.split(key)

init = SampleArgs(
    key=key,
    idx=0,
    x=random.normal(subkey, (n_samples,)),
    alpha_0=0.002,
    p_0=1.0
)

result, sample_trace = jax.lax.scan(partial(sample, score_fun), init, length=n_iter)
plot_trace(sample_trace);
# cell 8
ax = plt.subplot()
ax.hist(sample_trace[-1], density=True, bins=70, label="Samples")

x_plot = jnp.linspace(-2, 2, 100)
y = gmm(x_plot, norm, mu, sigma)
ax.plot(x_plot, y, label="Target distribution")
ax.set_xlim()
ax.set_xlabel("x")
ax.set_ylabel("PDF")
ax.legend();
# cell 9
def init_mlp(key, layer_sizes):
    """Initialize MLP parameters with He initialization."""
    params = []
    for in_size, out_size in zip(layer_sizes[:-1], layer_sizes[1:]):
        key, subkey = random.split(key)
        w = random.normal(subkey, (in_size, out_size)) * jnp.sqrt(2.0 / in_size)
        b = jnp.zeros(out_size)
        params.append((w, b))
    return params

def mlp(params, x):
    """MLP forward pass: scalar -> scalar."""
    h = jnp.atleast_1d(x)
    for w, b in params[:-1]:
        h = jnp.tanh(h @ w + b)
    w, b = params[-1]
    return (h @ w + b).squeeze()
# cell 10
def score_matching_loss(params, samples):
    """Implicit score matching loss (Hyvärinen 2005).
    
    In 1D the general objective simplifies to:
      J = E[ s(x)^2 / 2 + ds/dx ]
    where s(x) is the model's score estimate and ds/dx is its derivative w.r.t. x.
    """
    model = lambda x: mlp(params, x)
    scores = jax.vmap(model)(samples)
    norm_loss = scores ** 2 / 2.0
    score_deriv = jax.vmap(jax.grad(model))(samples)
    return (norm_loss + score_deriv).mean()
# cell 11
import optax

key = random.PRNGKey(0)
params = init_mlp(key, [1, 128, 128, 1])

optimizer = optax.adam(3e-4)
opt_state = optimizer.init(params)

train_data = x_init.flatten()
batch_size = 512

@jax.jit
def train_step(params, opt_state, batch):
    loss, grads = jax.value_and_grad(score_matching_loss)(params, batch)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss

n_epochs = 3  # scaffolding: 50 in the notebook
_calls = 0  # scaffolding
losses = []

for epoch in range(n_epochs):
    key, subkey = random.split(key)
    perm = random.permutation(subkey, train_data.shape[0])
    shuffled = train_data[perm]

    epoch_losses = []
    for i in range(0, len(shuffled) - batch_size, batch_size):
        batch = shuffled[i:i+batch_size]
        _calls += 1  # scaffolding
        params, opt_state, loss = train_step(params, opt_state, batch)
        epoch_losses.append(loss)

    avg_loss = jnp.mean(jnp.array(epoch_losses))
    losses.append(avg_loss)
    if epoch % 10 == 0:
        print(f"Epoch {epoch:3d}, loss: {avg_loss:.4f}")

print(f"Epoch {n_epochs-1:3d}, loss: {losses[-1]:.4f}")
# cell 12
learned_score = jax.vmap(lambda x: mlp(params, x))

fig, axes = plt.subplots(1, 2, figsize=(12, 4))

x_plot = jnp.linspace(-2.5, 2.5, 500)
axes[0].plot(x_plot, score_fun(x_plot), label="True score")
axes[0].plot(x_plot, learned_score(x_plot), '--', label="Learned score")
axes[0].set_xlabel('x')
axes[0].set_ylabel(r'$\nabla_x \log p(x)$')
axes[0].legend()

axes[1].plot(losses)
axes[1].set_xlabel('Epoch')
axes[1].set_ylabel('Loss')
plt.tight_layout();
# cell 13
key = random.PRNGKey(99)
key, subkey = random.split(key)

init_learned = SampleArgs(
    key=key, idx=0,
    x=random.normal(subkey, (n_samples,)),
    alpha_0=0.002, p_0=1.0
)

_, sample_trace_learned = jax.lax.scan(
    partial(sample, learned_score), init_learned, length=n_iter
)

ax = plt.subplot()
ax.hist(sample_trace_learned[-1], density=True, bins=70, label="Samples (learned score)")
x_plot = jnp.linspace(-2, 2, 100)
ax.plot(x_plot, gmm(x_plot, norm, mu, sigma), label="Target distribution")
ax.set_xlabel("x")
ax.set_ylabel("PDF")
ax.legend();

print(sorted(set(_COMPILED)), file=__import__("sys").stderr)  # scaffolding
_report({"jit(train_step)"}, _calls)  # scaffolding
