# source: https://github.com/juankuntz/ParEM/blob/dfce9f9fcada823851348cb018f21e87ea2103ab/jax/bayesian_neural_network.ipynb
# expect: shape-churn at line 359
# runtime: COMPILES 4 CALLS 12
# why: a0 = np.array([0]) and b0 = np.array([0]) are integer arrays, so at k = 0 ave_grad_param(wk, a[k]) is traced with an int32 scalar; np.append then turns a and b into float64 arrays and from k = 1 on the float32 signature is compiled again, so each jitted parameter gradient compiles twice per cloud shape where a float initial estimate would compile once.

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
# cell 4
#@title Load modules.

# Numpy and JAX for computations.
import numpy as np
import jax
import jax.numpy as jnp

# Pyplot for plots.
# import matplotlib.pyplot as plt  (scaffolding: plots cut)

_CALLS = [0]  # scaffolding

# cell 6
#@title Load, subsample, and normalize MNIST dataset.

# Load dataset:
# from keras.datasets import mnist  (scaffolding: no keras/MNIST here; random 28x28 images, digits 4 and 9)
# (images, labels), _ = mnist.load_data()
_rs = np.random.RandomState(0)  # scaffolding
images = _rs.randint(0, 256, (3000, 28, 28))  # scaffolding
labels = _rs.choice([4, 9, 1], 3000)  # scaffolding
images = np.array(images).astype(float)
labels = np.array(labels).astype(int)

# Keep only datapoints with labels 4 and 9:
indices = (labels == 4) | (labels == 9)
labels = labels[indices]
images = images[indices, :, :]

# Relabel as 4 as 0 and 9 as 1:
for n in range(labels.size):
    if labels[n] == 4:
        labels[n] = 0
    else:
        labels[n] = 1

# Sub-sample 1000 images:
from sklearn.model_selection import train_test_split
images, _, labels, _ = train_test_split(images, labels, train_size=1000,
                                        random_state=0)

# Normalize non-zero entries so that they have mean zero and unit standard 
# across the dataset:'''
i = images.std(0) != 0
images[:, i] = (images[:, i] - images[:, i].mean(0))/images[:, i].std(0)

# cell 8
#@title Implement algorithms.

# Algorithms.

def pgd(ltrain, itrain, ltest, itest, h, K, a, b, w, v):
    # Extract dimensions of latent variables:
    Dw = w[:, :, 0].size  # Dimension of w.
    Dv = v[:, :, 0].size  # Dimension of v.

    # Initialize arrays storing performance metrics as a function of k:
    lppd = np.zeros(K)  # Log pointwise predictive density (LPPD).
    error = np.zeros(K)  # Test error.

    for k in range(K):
        # Evaluate metrics for current particle cloud:
        lppd[k] = log_pointwise_predrictive_density(w, v, itest, ltest)
        error[k] = test_error(w, v, itest, ltest)

        # Temporarily store current particle cloud:
        wk = w  # Input layer weights.
        vk = v  # Output layer weights.

        # Update parameter estimates (note that we are using the heuristic 
        # discussed in Section 2 of the paper; i.e., dividing the 
        # alpha-gradient by Dw and the beta-gradient by Dv):
        a = np.append(a, a[k] + h*ave_grad_param(wk, a[k])/Dw)  # Alpha.
        b = np.append(b, b[k] + h*ave_grad_param(vk, b[k])/Dv)  # Beta.

        # Update particle cloud:
        w = (w + h*wgrad(wk, vk, a[k], b[k], itrain, ltrain)
               + jnp.sqrt(2*h) * np.random.normal(0, 1, w.shape)) 
        v = (v + h*vgrad(wk, vk, a[k], b[k], itrain, ltrain)
               + jnp.sqrt(2*h) * np.random.normal(0, 1, v.shape))
        _CALLS[0] += 2  # scaffolding: ave_grad_param ran twice (alpha and beta) this step

    return a, b, w, v, lppd, error


def pqn(ltrain, itrain, ltest, itest, h, K, a, b, w, v):
    # Initialize arrays storing performance metrics as a function of k:
    lppd = np.zeros(K)  # Log pointwise predictive density (LPPD).
    error = np.zeros(K)  # Test error.

    for k in range(K):
        # Evaluate metrics for current particle cloud:
        lppd[k] = log_pointwise_predrictive_density(w, v, itest, ltest)
        error[k] = test_error(w, v, itest, ltest)

        # Temporarily store current particle cloud:
        wk = w  # Input layer weights.
        vk = v  # Output layer weights

        # Update parameter estimates:
        a = np.append(a, a[k] + h*ave_grad_param(wk, a[k])
                                /ave_neg_hess_param(wk, a[k]))  # Alpha.
        b = np.append(b, b[k] + h*ave_grad_param(vk, b[k])
                                  /ave_neg_hess_param(vk, b[k]))  # Beta.
        
        # Update particle cloud:
        w = (w + h*wgrad(wk, vk, a[k], b[k], itrain, ltrain)
               + jnp.sqrt(2*h) * np.random.normal(0, 1, w.shape)) 
        v = (v + h*vgrad(wk, vk, a[k], b[k], itrain, ltrain)
               + jnp.sqrt(2*h) * np.random.normal(0, 1, v.shape))
        _CALLS[0] += 2  # scaffolding: ave_grad_param ran twice (alpha and beta) this step

    return a, b, w, v, lppd, error


def pmga(ltrain, itrain, ltest, itest, h, K, w, v):
    # Initialize arrays storing performance metrics as a function of k:
    lppd = np.zeros(K)  # Log pointwise predictive density (LPPD).
    error = np.zeros(K)  # Test error.

    # Compute initial parameter estimates:
    a = np.array([optimal_param(w)])  # Alpha.
    b = np.array([optimal_param(v)])  # Beta.

    for k in range(K):
        # Evaluate metrics for current particle cloud:
        lppd[k] = log_pointwise_predrictive_density(w, v, itest, ltest)
        error[k] = test_error(w, v, itest, ltest)

        # Temporarily store current particle cloud:
        wk = w  # Input layer weights.
        vk = v  # Output layer weights.
        
        # Update particle cloud:
        w = (w + h*wgrad(wk, vk, a[k], b[k], itrain, ltrain)
               + jnp.sqrt(2*h) * np.random.normal(0, 1, w.shape)) 
        v = (v + h*vgrad(wk, vk, a[k], b[k], itrain, ltrain)
               + jnp.sqrt(2*h) * np.random.normal(0, 1, v.shape))

        # Update parameter estimates:
        a = np.append(a, optimal_param(w))  # Alpha.
        b = np.append(b, optimal_param(v))  # Beta.

    return a, b, w, v, lppd, error


def soul(ltrain, itrain, ltest, itest, h, K, a, b, w, v):
    # Extract dimensions of latent variables:
    Dw = w[:, :, 0].size  # Dimension of w.
    Dv = v[:, :, 0].size  # Dimension of v.

    # Initialize arrays storing performance metrics as a function of k:
    lppd = np.zeros(K)  # Log pointwise predictive density (LPPD).
    error = np.zeros(K)  # Test error.

    for k in range(K):
        # Evaluate metrics for current particle cloud:
        lppd[k] = log_pointwise_predrictive_density(w, v, itest, ltest)
        error[k] = test_error(w, v, itest, ltest) 

        # Initliaze new ULA chain at final state of previous ULA chain:
        wkn = w[:, :, -1].reshape((w[:, 0, 0].size, w[0, :, 0].size, 1))
        vkn = v[:, :, -1].reshape((v[:, 0, 0].size, v[0, :, 0].size, 1))

        # Run ULA chain:
        for n in range(w[0, 0, :].size):
            # Take a step:
            wkn = (wkn + h*wgrad(wkn, vkn, a[k], b[k], itrain, ltrain)
                       + jnp.sqrt(2*h) * np.random.normal(0, 1, wkn.shape))
            vkn = (vkn + h*vgrad(wkn, vkn, a[k], b[k], itrain, ltrain)
                       + jnp.sqrt(2*h) * np.random.normal(0, 1, vkn.shape))
            
            # Store state:
            w[:, :, n] = wkn.reshape(w[:, :, 0].shape)
            v[:, :, n] = vkn.reshape(v[:, :, 0].shape)

        # Update parameter estimates (note that we are using the heuristic 
        # discussed in Section 2 of the paper; i.e., dividing the 
        # alpha-gradient by Dw and the beta-gradient by Dv):'''
        a = np.append(a, a[k] + h*ave_grad_param(w, a[k])/Dw)  # Alpha.
        b = np.append(b, b[k] + h*ave_grad_param(v, b[k])/Dv)  # Beta.

    return a, b, w, v, lppd, error


# Auxiliary functions.

# Functions for the log density.

def _log_nn(w, v, image):
    # Log of the network's output when evaluated at image with weights w, v.
    arg = jnp.dot(v, jnp.tanh(jnp.dot(w, image.reshape((28**2)))))
    return jax.nn.log_softmax(arg)


def _log_nn_vec(w, v, images):
    # _log_nn vectorized over particles.
    return jax.vmap(_log_nn, in_axes=(None, None, 0))(w, v, images)


def _log_prior(x, lsig):
    # Log of a Gaussian prior, with mean 0 and variance e^lsig, evaluated at x.
    v = x.reshape((x.size))
    sig = jnp.exp(lsig)
    return -jnp.dot(v, v)/(2*sig**2) - x.size * (jnp.log(2*jnp.pi)/2 + lsig)


def _log_likelihood(w, v, images, labels):
    # Log-likelihood for set of images and labels, vectorized over particles.
    return (_log_nn_vec(w, v, images)[jnp.arange(labels.size), labels]).sum()


def _log_density(w, v, a, b, images, labels):
    # Log of model density, vectorized over particles.
    out = _log_prior(w, a) + _log_prior(v, b)
    return out + _log_likelihood(w, v, images, labels)


# Functions for the gradients of the log-density.'

def _grad_param(x, lsig):
    # Parameter gradient of one of the two log-priors.
    v = x.reshape((x.size))
    sig = jnp.exp(lsig)
    return jnp.dot(v, v)/(sig**2) - x.size


@jax.jit
def ave_grad_param(w, lsig):
    """Parameter gradient averaged over particle cloud."""
    grad = jax.vmap(_grad_param, in_axes=(2, None))(w, lsig)
    return grad.mean()


@jax.jit
def wgrad(w, v, a, b, images, labels):
    """w-gradient vectorized over particle cloud."""
    grad = jax.grad(_log_density, argnums=0)
    gradv = jax.vmap(grad, in_axes=(2, 2, None, None, None, None), out_axes=2)
    return gradv(w, v, a, b, images, labels)


@jax.jit
def vgrad(w, v, a, b, images, labels):
    """v-gradients vectorized over particle cloud."""
    grad = jax.grad(_log_density, argnums=1)
    gradv = jax.vmap(grad, in_axes=(2, 2, None, None, None, None), out_axes=2)
    return gradv(w, v, a, b, images, labels)


# Functions for the negative Hessian of the log prior used in the PQN update.

def _neg_hess_param(x, lsig):
    # Negative parameter Hessian of one of the two log-priors.'
    v = x.reshape((x.size))
    sig = jnp.exp(lsig)
    return 2*jnp.dot(v, v)/(sig**2)


@jax.jit
def ave_neg_hess_param(w, lsig):
    """Negative parameter Hessian averaged over particles."""
    hess = jax.vmap(_neg_hess_param, in_axes=(2, None))(w, lsig)
    return hess.mean()


# Functions for the optimal parameters used in the PMGD update.

def _normsq(x):
    # Squared Frobenius norm of x.
    v = x.reshape((x.size))
    return jnp.dot(v, v)


@jax.jit
def optimal_param(w):
    """Optimal parameter for weight cloud w."""
    mom2 = (jax.vmap(_normsq, in_axes=(2))(w)).mean()  # Second moment
    return jnp.log(mom2/(w[:, :, 0].size))/2


# Functions for the performance metrics.

def _nn(w, v, image):
    # Network's output when evaluated at image with weights w, v.
    arg = jnp.dot(v, jnp.tanh(jnp.dot(w, image.reshape((28**2)))))
    return jax.nn.softmax(arg)


def _nn_vec(w, v, images):
    # _nn vectorized over images.
    return jax.vmap(_nn, in_axes=(None, None, 0))(w, v, images)


def _nn_vec_vec(w, v, images):
    # _nn_vec vectorized over particles.
    return jax.vmap(_nn_vec, in_axes=(2, 2, None), out_axes=2)(w, v, images)


@jax.jit
def log_pointwise_predrictive_density(w, v, images, labels):
    """Returns LPPD for set of (test) images and labels."""
    s = _nn_vec_vec(w, v, images).mean(2)
    return jnp.log(s[jnp.arange(labels.size), labels]).mean()


def _predict(w, v, images):
    # Returns label maximizing the approximate posterior predictive 
    # distribution defined by the cloud (w,v), vectorized over images.
    s = _nn_vec_vec(w, v, images).mean(2)
    return jnp.argmax(s, axis=1)


@jax.jit
def test_error(w, v, images, labels):
    """Returns fraction of misclassified images in test set."""
    return jnp.abs(labels - _predict(w, v, images)).mean()

# cell 10
# Split data into 80/20 training and testing sets:
itrain, itest, ltrain, ltest = train_test_split(images, labels, test_size=0.2,
                                                random_state=0)

# Set approximation parameters:
h = 1e-1 # Step-size. 
K = 3  # Number of steps.  # scaffolding: 500 in the notebook
N = 10  # Number of particles.  # scaffolding: 100 in the notebook

# Initialize parameter estimates:
a0 = np.array([0])  # Alpha.
b0 = np.array([0])  # Beta.

# Initialize particle cloud by sampling prior:'
w0 = np.exp(a0)*np.random.normal(0, 1, (40, 28**2, N))  # Input layer weights.
v0 = np.exp(b0)*np.random.normal(0, 1, (2, 40, N))  # Output layer weights.

# Run algorithms:
a_pgd, b_pgd, w_pgd, v_pgd, lppd_pgd, error_pgd = pgd(ltrain, itrain, ltest, 
                                                      itest, h, K, a0, b0, w0, 
                                                      v0)
a_pqn, b_pqn, w_pqn, v_pqn, lppd_pqn, error_pqn = pqn(ltrain, itrain, ltest, 
                                                      itest, h, K, a0, b0, w0, 
                                                      v0)
# (pmga and soul runs cut for CPU time: scaffolding)

# (plot cells cut: scaffolding)

_report({"jit(ave_grad_param)"}, _CALLS[0])  # scaffolding
