# source: https://github.com/anirbanl/jax-code/blob/b29205d54790b1f8766cd202d49139a6ed67fe98/generative_models/jax_basic_gan.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 12
# why: The training loop passes a changing Python int step counter e*N+ii as the first argument of the jitted step; it is traced (not static), so the GAN step compiles once.

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
from jax import jit, grad, vmap, random
from functools import partial
import jax
import jax.numpy as np
from jax.example_libraries import stax  # scaffolding: jax.experimental.stax in the notebook (moved)
from jax.example_libraries.stax import Dense, LeakyRelu, Tanh  # scaffolding: same move; unused layers cut
from jax.nn import softmax, sigmoid
import numpy as onp
from jax.example_libraries import optimizers  # scaffolding: jax.experimental.optimizers in the notebook (moved)

# %% cell 1
#Setup environment and hyperparameters
rng = random.PRNGKey(1)
g_hidden_size = 128
d_hidden_size = 128
g_out_dim = 784
d_out_dim = 1
z_size = 100
smooth = 0.1
learning_rate = 0.002
batch_size = 100
epochs = 2  # scaffolding: 100 in the notebook

# %% cell 2
#Define Generator
gen_init, gen_apply = stax.serial(
    Dense(g_hidden_size), LeakyRelu,
    Dense(g_out_dim), Tanh    
)
g_in_shape = (-1, z_size)
_, gen_params = gen_init(rng, g_in_shape)

# %% cell 3
#Define Discriminator
disc_init, disc_apply = stax.serial(
    Dense(d_hidden_size), LeakyRelu,
    Dense(d_out_dim)    
)
d_in_shape = (-1, g_out_dim)
_, disc_params = disc_init(rng, d_in_shape)

# %% cell 4
#Define Losses and Optimizers
def cross_entropy_with_logits(targets, logits):
    predictions = sigmoid(logits)
    return -(targets*np.log(predictions+1e-9)+(1-targets)*np.log(1-predictions+1e-9))

def loss(gen_params, disc_params, input_z, input_real):
    g_out = gen_apply(gen_params, input_z)
    d_logits_real = disc_apply(disc_params, input_real)
    d_logits_fake = disc_apply(disc_params, g_out)
    d_loss_real = np.mean(cross_entropy_with_logits(targets=np.ones_like(d_logits_real)*(1-smooth), logits=d_logits_real))
    d_loss_fake = np.mean(cross_entropy_with_logits(targets=np.zeros_like(d_logits_fake), logits=d_logits_fake))
    d_loss = d_loss_real + d_loss_fake
    g_loss = np.mean(cross_entropy_with_logits(targets=np.ones_like(d_logits_fake), logits=d_logits_fake))
    return g_loss, d_loss

g_opt_init, g_opt_update, g_get_params = optimizers.adam(step_size=learning_rate)
d_opt_init, d_opt_update, d_get_params = optimizers.adam(step_size=learning_rate)
g_opt_state = g_opt_init(gen_params)
d_opt_state = d_opt_init(disc_params)

@jit
def step(i, g_opt_state, d_opt_state, input_z, input_real):
    g_params = g_get_params(g_opt_state)
    d_params = d_get_params(d_opt_state)
    g_loss = lambda x: loss(x, d_params, input_z, input_real)[0]
    d_loss = lambda y: loss(g_params, y, input_z, input_real)[1]
    gen_grad = grad(g_loss)(g_params)
    disc_grad = grad(d_loss)(d_params)
    gl, dl = loss(g_params, d_params, input_z, input_real)
    return g_opt_update(i, gen_grad, g_opt_state), d_opt_update(i, disc_grad, d_opt_state), gl, dl

# %% cell 5
class _Train:  # scaffolding: stand-in for tensorflow's input_data.read_data_sets('MNIST_data', one_hot=True)
    num_examples = 600  # 55000 in MNIST
    _rng = onp.random.RandomState(0)
    def next_batch(self, n):
        return self._rng.rand(n, 784).astype("float32"), onp.eye(10, dtype="float32")[self._rng.randint(0, 10, n)]
class mnist:  # scaffolding
    train = _Train()

# %% cell 7
#Training
samples = []
losses = []
n_calls = 0  # scaffolding

for e in range(epochs):
    for ii in range(mnist.train.num_examples // batch_size):
        batch = mnist.train.next_batch(batch_size)

        # Get images, reshape and rescale to pass to D
        batch_images = batch[0].reshape((batch_size, 784))
        batch_images = batch_images * 2 - 1

        # Sample random noise for G
        batch_z = random.uniform(rng, shape=(batch_size, z_size), minval=-1., maxval=1.)

        #Take steps
        g_opt_state, d_opt_state, gl, dl = step(e*mnist.train.num_examples+ii, g_opt_state, d_opt_state, batch_z, batch_images)
        n_calls += 1  # scaffolding
        #print(dl,gl)

    # At the end of each epoch, get the losses and print them out
    print("Epoch {}/{}...".format(e + 1, epochs),
        "Discriminator Loss: {:.4f}...".format(dl),
        "Generator Loss: {:.4f}".format(gl))

    # Save losses to view after training
    losses.append((dl, gl))

    # Sample from generator as we're training for viewing afterwards
    sample_z = random.uniform(rng, shape=(16, z_size), minval=-1., maxval=1.)
    gen_params = g_get_params(g_opt_state)
    gen_samples = gen_apply(gen_params, sample_z)
    samples.append(gen_samples)
_report({"jit(step)"}, n_calls)  # scaffolding
