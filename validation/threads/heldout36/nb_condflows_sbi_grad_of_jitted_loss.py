# source: https://github.com/smsharma/jax-conditional-flows/blob/726ea670dac3edabee959b78f827f9225a04d45b/notebooks/sbi.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 20
# why: The training cell calls jax.value_and_grad of the @jax.jit loss_fn afresh on every step outside any jit; the differentiated jit is cached after the first step (one forward/JVP and one transpose compile), so the loop does not recompile.

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
import numpy as np
from tqdm import tqdm, trange
# cell 2
def bump_forward_model(y, amp_s, mu_s, std_s, amp_b, exp_b):
    """ Forward model for a Gaussian bump (amp_s, mu_s, std_s) on top of a power-law background (amp_b, exp_b).
    """
    x_b = amp_b * (y ** exp_b)  # Power-law background
    x_s = amp_s * np.exp(-((y - mu_s) ** 2) / (2 * std_s ** 2))  # Gaussian signal

    x = x_b + x_s  # Total mean signal

    return x
# cell 3 (poisson_interval and the plot cut)
y = np.linspace(0.1, 1, 50)  # Dependent variable

# Mean expected counts
x_mu = bump_forward_model(y, 
                    amp_s=50, mu_s=0.8, std_s=0.05,  # Signal params
                    amp_b=50, exp_b=-0.5)  # Background params

# Realized counts
x = np.random.poisson(x_mu)
# cell 4
def bump_simulator(thetas, y):
    """ Simulate samples from the bump forward model given theta = (amp_s, mu_s) and abscissa points y.
    """
    amp_s, mu_s = thetas
    std_s, amp_b, exp_b = 0.05, 50, -0.5
    x_mu = bump_forward_model(y, amp_s, mu_s, std_s, amp_b, exp_b)
    x = np.random.poisson(x_mu)
    return x
# cell 5
n_train = 2_000  # scaffolding: 50_000 in the notebook

# Simulate training data
theta_samples = np.random.uniform(low=[0, 0], high=[200, 1], size=(n_train, 2))  # Parameter proposal
x_samples = np.array([bump_simulator(theta, y) for theta in theta_samples])
# cell 6
# Normalize the data
x_mean = x_samples.mean()
x_std = x_samples.std()
x_samples = (x_samples - x_mean) / x_std

theta_mean = theta_samples.mean(axis=0)
theta_std = theta_samples.std(axis=0)
theta_samples = (theta_samples - theta_mean) / theta_std
# cell 7
import jax
import jax.numpy as jnp  # scaffolding
import optax
import flax.linen as nn


class _FlowStandIn(nn.Module):  # scaffolding: models.maf.MaskedAutoregressiveFlow needs distrax; a conditional Gaussian log-density stands in
    n_dim: int
    n_context: int

    @nn.compact
    def __call__(self, theta, context):
        mu = nn.Dense(self.n_dim)(context)
        return -0.5 * jnp.sum((theta - mu) ** 2, axis=-1)


# cell 8
class MLP(nn.Module):
    """ A simple MLP in Flax. This will be the feature extractor.
    """
    hidden_dim: int = 32
    out_dim: int = 2
    n_layers: int = 2

    @nn.compact
    def __call__(self, x):
        for _ in range(self.n_layers):
            x = nn.Dense(features=self.hidden_dim)(x)
            x = nn.gelu(x)
        x = nn.Dense(features=self.out_dim)(x)
        return x
# cell 9
class NeuralPosteriorEstimator(nn.Module):
    """ A neural posterior estimator.
    """
    d_param: int = 2  # Param dim
    d_hidden: int = 64  # Hidden dim of MLP and flow
    d_summaries: int = 16  # Number of summaries from MLP
    n_layers: int = 4  # Number of layers in MLP
    n_transforms: int = 6  # Number of flow transforms

    def setup(self):
        self.featurizer = MLP(hidden_dim=self.d_hidden, out_dim=self.d_summaries, n_layers=self.n_layers)
        self.flow = _FlowStandIn(n_dim=self.d_param, n_context=self.d_summaries)  # scaffolding: MaskedAutoregressiveFlow(...) in the notebook

    @nn.compact
    def __call__(self, x, theta):

        # Pass data through MLP to get summaries
        context =self.featurizer(x)

        # Use summaries as context for flow
        log_prob = self.flow(theta, context)

        return log_prob
# cell 10
npe = NeuralPosteriorEstimator()

key = jax.random.PRNGKey(0)
log_prob, params = npe.init_with_output(rngs=key, x=x_samples[:16], theta=theta_samples[:16])
# cell 11
@jax.jit
def loss_fn(params, x, theta):
    log_prob = npe.apply(params, x, theta)
    return -log_prob.mean()
# cell 12
opt = optax.sgd(learning_rate=1e-4, momentum=0.99, nesterov=True)
opt_state = opt.init(params)
# cell 13
n_steps = 20  # scaffolding: 3000 in the notebook
n_batch = 128

with trange(n_steps, disable=True) as steps:  # scaffolding: progress bar disabled
    for step in steps:

        # Draw a random batches from x
        key, subkey = jax.random.split(key)
        idx = jax.random.choice(key, x.shape[0], shape=(n_batch,))

        x_batch, theta_batch = x_samples[idx], theta_samples[idx]
        
        loss, grads = jax.value_and_grad(loss_fn)(params, x_batch, theta_batch)
        updates, opt_state = opt.update(grads, opt_state, params)

        params = optax.apply_updates(params, updates)

        steps.set_postfix(val=loss)
_report({"jit(loss_fn)"}, n_steps)  # scaffolding
