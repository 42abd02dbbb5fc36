# source: https://github.com/IanQS/numpy_to_jax/blob/efe090d340fb77708dd6a65e70b3465a4a42e061/case_studies/gaussian_mixture_model/jax_implementation.ipynb
# expect: shape-churn at line 169
# runtime: COMPILES 2 CALLS 26
# why: initialize_guesses builds cls_probs with shape (K, 1), but m_step returns the class weights with shape (K,); the jitted e_step is first traced for (K, 1) and retraced for (K,) on the second EM iteration.

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
import jax
import jax.numpy as jnp
import numpy as np
np.random.seed(123)
import time

def make_ds(centers, dataset_size):  # scaffolding: stand-in for data_utils.make_ds (sklearn make_blobs)
    points_in_classes = [500, 350, 200, 50]
    cluster_stds = [1.3, 1.4, 1.5, 0.8]
    X = np.concatenate([c + s * np.random.randn(n, 2) for c, s, n in zip(centers, cluster_stds, points_in_classes)])
    y = np.concatenate([np.full(n, i) for i, n in enumerate(points_in_classes)])
    scale = (np.random.randint(low=-80, high=80, size=centers.shape)) / 100
    initial_mu_guesses = centers + (centers * scale)
    return (X, y), initial_mu_guesses

GUESS_NUM_CLASSES = 4

unknown_centers = np.asarray([
    [1, -1],  # bottom left
    [5, 5],  # middle
    [8, 7],  # mid-right
    [10, 0]  # bottom right
])

dataset_size = "SMALL"  # scaffolding: DatasetSize.LARGE


(X, y), _ = make_ds(unknown_centers, dataset_size=dataset_size)

def _gaussian_pdf_cls_single(x, mu, sigma, pi):
    lhs = 2 * jnp.pi ** (-len(mu) / 2)
    mid = jnp.linalg.det(sigma) ** -0.5
    
    diff = x - mu
    rhs = -0.5 * (diff @ jnp.linalg.inv(sigma) @ diff)
    return lhs * mid * jnp.exp(rhs) * pi

@jax.jit
def log_likelihood(X, mus, sigmas, pis):
    """
    Vectorized log-likelihood computation.
    """
    _gaussian_pdf_cls_batch = jax.vmap(
        fun=_gaussian_pdf_cls_single,
        in_axes=(0, None, None, None)
    )

    gaussian_pdf_batch = jax.vmap(
        fun=_gaussian_pdf_cls_batch,
        in_axes=(None, 0, 0, 0)
    )
    pdfs = jnp.squeeze(gaussian_pdf_batch(X, mus, sigmas, pis)).T
    
    # Sum PDFs across classes for each data point, then take log and sum
    return jnp.sum(jnp.log(jnp.sum(pdfs, axis=1)))

@jax.jit
def e_step(X, mus, sigmas, pis):
    # Get PDFs for all data points and classes
    _gaussian_pdf_cls_batch = jax.vmap(
        fun=_gaussian_pdf_cls_single,
        in_axes=(0, None, None, None)
    )
    gaussian_pdf_batch = jax.vmap(
        fun=_gaussian_pdf_cls_batch,
        in_axes=(None, 0, 0, 0)
    )
    pdfs = jnp.squeeze(gaussian_pdf_batch(X, mus, sigmas, pis)).T
    # Normalize to get responsibilities
    # Sum across classes for each data point
    pdf_sums = jnp.sum(pdfs, axis=1, keepdims=True)
    responsibilities = pdfs / pdf_sums
    
    return responsibilities

def _update_params_single_class(X, resp, cls_resp_sum, mu, sigma, pi):
    cls_resp = jnp.expand_dims(resp, axis=-1)
    scale_factor = 1 / cls_resp_sum
    new_mus = scale_factor * jnp.sum(cls_resp * X, axis=0)

    deviation = X - mu
    scaled_deviation = cls_resp * deviation
    new_sigmas = scale_factor * (scaled_deviation.T @ deviation)
    new_pis = cls_resp_sum

    return new_mus, new_sigmas, new_pis
    
def m_step(X, responsibilities, mus, sigmas, pis):
    cls_resp_sum = jnp.sum(responsibilities, axis=0)

    update_params_single_class = jax.vmap(
        fun=_update_params_single_class,
        in_axes=(None, 1, 0, 0, 0, 0)
    )
    new_mus, new_sigmas, new_pis = update_params_single_class(
        X, responsibilities, cls_resp_sum, mus, sigmas, pis
    )
    return new_mus, new_sigmas, new_pis / len(X)

def initialize_guesses(X, guessed_num_classes, dataset_size):
    # We just say the covariance of the entire dataset is the covariance of each sub-cluster.
    sigmas = np.asarray([np.cov(X.T) for _ in range(guessed_num_classes)])
    
    # We simply 
    cls_probs = np.expand_dims(
        np.asarray([1 / guessed_num_classes for _ in range(guessed_num_classes)]).T,
        axis=-1
    )

    _, mus = make_ds(unknown_centers, dataset_size)

    mus = jnp.asarray(mus)
    sigmas = jnp.asarray(sigmas)
    cls_probs = jnp.asarray(cls_probs)
    return mus, sigmas, cls_probs
    
jax.config.update("jax_debug_nans", True)

_calls = 0  # scaffolding

def gmm(
    X: np.ndarray,
    guess_num_classes,
    dataset_size,
    verbose=False
):
    global _calls  # scaffolding

    mus, sigmas, cls_probs = initialize_guesses(X, guess_num_classes, dataset_size)
    counter = 0
    ll_container = []
    TOL = 0.0001
    ll_container.append(np.inf)

    start_time = time.perf_counter()
    while True:  # Run until converges
        if counter >= 25:  # scaffolding
            break  # scaffolding
        _calls += 1  # scaffolding: e_step calls
        # e-step
        responsibilities = e_step(X, mus, sigmas, cls_probs)

        # m-step
        mus, sigmas, cls_probs = m_step(X, responsibilities, mus, sigmas, cls_probs)
        # Recalculate the log-likelihood
        ll_curr = float(log_likelihood(X, mus, sigmas, cls_probs))

        if np.abs(ll_container[-1] - ll_curr) < TOL:
            print(f"Converged to within {TOL} after: {counter} iterations")
            break

        ll_container.append(float(ll_curr))
        if verbose and counter % 5 == 0 and counter > 0:
            print(f"Data Log-Likelihood at iteration: {counter} = {ll_curr:.6f}")
        counter += 1

    responsibilities = e_step(X, mus, sigmas, cls_probs)
    _calls += 1  # scaffolding
    print(f"Total Training time was: {time.perf_counter() - start_time:.4f}s over {counter} rounds")
    return mus, sigmas, cls_probs.T, responsibilities.T, ll_container[1:]
    # -------------------------- #


mus, sigmas, cls_priors, _, lls = gmm(
    X,
    guess_num_classes=GUESS_NUM_CLASSES,
    dataset_size=dataset_size,
    verbose=True
)
_report({"jit(e_step)"}, _calls)  # scaffolding
