# source: https://github.com/charlesollion/dlexperiments/blob/28bf0daf38a563857b1759cbae297951ffa5ea8f/2-Variational-Autoencoders-Vanilla/Demos%20VAE%20Jax.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: jit(encoder_fn), jit(decoder_fn) and jit(jax.value_and_grad(...)) are built inside the jitted vae_loss and update, but those are traced once and every batch has 32 rows, so update compiles once for its 20 calls.
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


import numpy as np  # scaffolding


class _Plt:  # scaffolding: matplotlib is not installed; every plotting call is a no-op
    def __getattr__(self, name):  # scaffolding
        return _Plt()  # scaffolding

    def __call__(self, *a, **k):  # scaffolding
        return None  # scaffolding


def _fashion_mnist_load_data():  # scaffolding: keras' fashion_mnist needs a download; 160 train / 40 test random images (60000 / 10000 in the real set)
    rs = np.random.RandomState(0)  # scaffolding
    return ((rs.randint(0, 256, (160, 28, 28)).astype(np.uint8), rs.randint(0, 10, 160)),  # scaffolding
            (rs.randint(0, 256, (40, 28, 28)).astype(np.uint8), rs.randint(0, 10, 40)))  # scaffolding


# cell 1
# from tensorflow.keras.datasets import fashion_mnist  # scaffolding: tensorflow is not installed; stand-in above
(x_train, y_train), (x_test, y_test) = _fashion_mnist_load_data()  # scaffolding: fashion_mnist.load_data()
# cell 2
import numpy as np
# import matplotlib.pyplot as plt  # scaffolding: stand-in below
plt = _Plt()  # scaffolding
from scipy.stats import norm

plt.figure(figsize=(16, 8))
for i in range(0, 18):
    plt.subplot(3, 6, i + 1)
    plt.imshow(x_train[i], cmap="gray")
    plt.axis("off")
plt.show()
# cell 3
x_train = x_train.astype('float32') / 255.
x_test = x_test.astype('float32') / 255.
# cell 4
x_train_standard = x_train.reshape((len(x_train), np.prod(x_train.shape[1:])))
x_test_standard = x_test.reshape((len(x_test), np.prod(x_test.shape[1:])))
x_train_standard.shape, x_test_standard.shape
# cell 5
import jax
import jax.numpy as jnp
from jax import jit, grad
# cell 6
W = jnp.zeros((2,3))
x = jnp.zeros((2))
jnp.dot(x, W)
# cell 7
from jax import random
rand_key = random.PRNGKey(1)
# cell 8
random.normal(rand_key, shape=(2,3))
# cell 9
k1, k2 = random.split(rand_key)

#you can update the rand_key
rand_key = k1

#use k2
random.normal(k2, shape=(2,3))
# cell 10
# from jax.experimental import stax # neural network library  # scaffolding: stax moved to jax.example_libraries
# from jax.experimental.stax import Dense, Relu, Sigmoid  # scaffolding
from jax.example_libraries import stax  # scaffolding
from jax.example_libraries.stax import Dense, Relu, Sigmoid  # scaffolding

input_dim = x_train_standard.shape[-1]
hidden_dim = 128
latent_dim = 2

encoder_init, encoder_fn = stax.serial(
    Dense(hidden_dim), Relu, Dense(latent_dim * 2))

#initialize the parameters
rand_key, key = random.split(rand_key)
out_shape, params_enc = encoder_init(rand_key, (-1, input_dim))

print("Parameters: (W,b) of first Dense, Relu, (W,b) of second Dense: ")
[[p.shape for p in param] for param in params_enc]
# cell 11
z = jit(encoder_fn)(params_enc, x_train_standard[0:10])  # scaffolding: %time magic dropped
z = encoder_fn(params_enc, x_train_standard[0:10])  # scaffolding: %time magic dropped
print(f"\nShape of the output: {z.shape}")
# cell 12
def sample(rand_key, z_mean, z_log_var):
    epsilon = random.normal(rand_key, shape=z_mean.shape)
    return z_mean + jnp.exp(z_log_var / 2) * epsilon

fast_sample = jit(sample)
# cell 13
decoder_init, decoder_fn = stax.serial(
    Dense(hidden_dim), Relu, Dense(input_dim), Sigmoid)

#initialize the parameters
rand_key, key = random.split(rand_key)
out_shape, params_dec = decoder_init(rand_key, (-1, latent_dim))

params = params_enc + params_dec
# cell 14
EPSILON = 1e-6
negative_xent = jit(lambda x, y: - jnp.sum(y * jnp.log(x + EPSILON) + 
                                           (1-y)*jnp.log(1-x + EPSILON), axis=-1))

negative_kl = jit(lambda z_mean, z_log_var: - 0.5 * 
                  jnp.sum(1 + z_log_var - z_mean ** 2 - jnp.exp(z_log_var), axis=-1))

@jit
def vae_loss(rand_key, params, x):
    # Encoder 
    latent = jit(encoder_fn)(params[0:3], x)
    d = latent.shape[-1]//2
    z_mean, z_log_var = latent[:, :d], latent[:,d:]
    
    # Sample
    z_sample = fast_sample(rand_key, z_mean, z_log_var)
    
    # Decoder
    x_rec = jit(decoder_fn)(params[3:], z_sample)
    
    xent_loss = negative_xent(x_rec, x)
    kl_loss = negative_kl(z_mean, z_log_var)
    
    # average over the batch, and sum kl / xent
    negative_elbo = jnp.mean(xent_loss) + jnp.mean(kl_loss) 
    return negative_elbo
# cell 15
vae_loss(rand_key, params, x_train_standard[0:10])  # scaffolding: %time magic dropped
# cell 16
from functools import partial
rand_key, key = random.split(rand_key) 
vae_loss_rand = partial(vae_loss, key) # this creates a function val_loss without the rand_key argument

grads = grad(vae_loss_rand)(params, x_train_standard[0:1])

print("Shapes of all gradients of the loss with regards to each parameter, for a batch of 1 inputs: \n")
names = ["[enc] (W,b) of first Dense", "[enc] Relu", "[enc] W,b) of second Dense",
         "[dec] (W,b) of first Dense", "[dec] Relu", "[dec] (W,b) of second Dense", "[dec] Sigmoid"]

print("\n".join([name + " : "+ " ".join([str(p.shape) for p in param]) for name, param in zip(names, grads)]))
# (the rest of cell 16 plots the gradients)  # scaffolding: plotting lines cut
# cell 17
# You may run this cell to reinit parameters if needed
_, params_enc = encoder_init(rand_key, (-1, input_dim))
_, params_dec = decoder_init(rand_key, (-1, latent_dim))
params = params_enc + params_dec
# cell 18
# from jax.experimental import stax, optimizers  # scaffolding: moved to jax.example_libraries
from jax.example_libraries import stax, optimizers  # scaffolding

data_size = x_train_standard.shape[0]
batch_size = 32
learning_rate = 0.001

opt_init, opt_update, get_params = optimizers.adam(learning_rate)
opt_state = opt_init(params)

losses = []
# cell 19
@jit
def update(key, batch, opt_state):
    params = get_params(opt_state)
    value_and_grad_fun = jit(jax.value_and_grad(lambda params, x: vae_loss(key, params, x)))
    loss, grads = value_and_grad_fun(params, batch)
    opt_state = opt_update(0, grads, opt_state)
    return opt_state, loss
# cell 20
for epochs in range(5):
    # Shuffle the dataset
    rand_key, key = random.split(rand_key)
    permutation = random.permutation(key, data_size)
    for i in range(data_size // 32 - 1):
        batch = x_train_standard[permutation[i * 32:(i+1)*32]]
        rand_key, key = random.split(rand_key)
        opt_state, loss = update(key, batch, opt_state)
        losses.append(loss)
# cell 21
plt.plot(losses);
# cell 22
rand_key, key = random.split(key)
params = get_params(opt_state)
params_dec = params[3:]
z = random.normal(key, shape=(1,latent_dim))
generated = decoder_fn(params_dec, z)
plt.imshow(generated.reshape(28, 28), cmap=plt.cm.gray)
plt.axis('off');
# cells 23-27 (PCA with sklearn and plots of the latent space) cut  # scaffolding
_report({"jit(update)"}, len(losses))  # scaffolding: 5 epochs x (160 // 32 - 1) = 20 batches of 32
