# source: https://github.com/Adversarian/JAX-Learning/blob/c0a5879ca89b8179940e156b56ca7d52170e334f/jax_kmeans_gd.ipynb
# expect: shape-churn at line 85
# runtime: COMPILES 4 CALLS 8
# why: the k-means++ initialisation calls the jitted get_dists with centroids, a Python list that grows by one array per iteration, so the pytree structure of the argument changes and get_dists compiles again for 1, 2, 3 and 4 centroids.
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
import jax
from jax import numpy as jnp
# from sklearn.datasets import make_blobs  # scaffolding: sklearn not installed; stand-in below
import numpy as _np  # scaffolding


def make_blobs(n_samples, centers, cluster_std, return_centers):  # scaffolding: sklearn.datasets.make_blobs stand-in (float64 like sklearn)
    ctr = _np.random.uniform(-10, 10, size=(centers, 2))  # scaffolding
    y = _np.random.randint(0, centers, n_samples)  # scaffolding
    return ctr[y] + _np.random.normal(scale=cluster_std, size=(n_samples, 2)), y, ctr  # scaffolding
# from matplotlib import pyplot as plt  # scaffolding: matplotlib not installed


class plt:  # scaffolding: no-op stand-in
    scatter = staticmethod(lambda *a, **k: None)  # scaffolding
from functools import partial
# from sklearn.metrics import (adjusted_rand_score as ARI,  # scaffolding: sklearn not installed; the two ARI/AMI print cells are cut
#  adjusted_mutual_info_score as AMI)  # scaffolding
import optax
from tqdm import tqdm
# cell 2
import numpy as np
np.random.seed(42)
X, y, centroids_true = make_blobs(
    n_samples = 1000,
    centers = 5,
    cluster_std= 0.6,
    return_centers=True
)
plt.scatter(X[:,0], X[:,1], c=y);
# cell 3
@jax.jit # good
def get_dists(X, centroids):
    """Generates distance of X from each centroid
    """
    dists = [jnp.linalg.norm((X - centroid), axis=1) for centroid in centroids]
    return jnp.array(dists)
# cell 4
@jax.jit
def clustering_loss(centroids, X):
    """Given X and centroids, calculates clustering loss
    """
    all_squared_errors = jnp.array([jnp.sum(jnp.square(X - centroid), axis=1) for centroid in centroids])
    loss = jnp.mean(jnp.min(all_squared_errors, axis=0))
    return loss
# cell 5
# not sure how to work with jax.random yet
def centroids_kmeanspp_init(X, k=5):
    """Generates k centroids using kmeans++ improved random initialization
    """
    import numpy as np
    centroids = []
    # generate first centroid randomly from X
    centroids.append(X[np.random.randint(X.shape[0]), :])
    for c_n in range(k-1):
        dists = get_dists(X, centroids)
        dists = jnp.min(dists, axis=0)
        centroids.append(X[jnp.argmax(dists), :])
    return jnp.array(centroids)
# cell 6
@jax.jit
def cluster(X, centroids):
    """Given X and centroids, returns cluster labels for each instance of X
    """
    dists = get_dists(X, centroids)
    return jnp.argmin(dists, axis=0)
# cell 7
@jax.jit
def update(cents_old, v_old, X, centroids, lr, gamma):
    """Calculates update step of momentum gradent descent
    """
    loss_val, grads =  jax.value_and_grad(clustering_loss)(centroids, X)
    return loss_val, cents_old - (gamma*v_old + lr*grads)
# cell 8
#@jax.jit ---> VERY BAD (cold start because of jitting)
def k_means_momentum_gd(X, centroids, lr, n_iter=100, gamma=0.9, rtol=1e-4):
    v = jnp.zeros_like(centroids)
    for i in tqdm(range(n_iter)):
        loss_val, centroids = update(centroids, v, X, centroids, lr, gamma)
    return loss_val, centroids
# cell 9
### VERSION 2
lr = 1
centroids_init = centroids_kmeanspp_init(X, k=5)
best_loss, best_centroids = k_means_momentum_gd(X, centroids_init, lr)
print(f'Best loss: {best_loss}')
# cell 10
print(f'Best_loss: {best_loss} vs. actual_loss: {clustering_loss(centroids_true, X)}')
# cell 11
best_labels = cluster(X, best_centroids)
# cell 12
# print(f'ARI: {ARI(y, best_labels)}, AMI:{AMI(y, best_labels)}')  # scaffolding: sklearn metrics cut
# cell 13
plt.scatter(X[:,0], X[:,1], c=best_labels);
plt.scatter(best_centroids[:,0], best_centroids[:,1], marker='+', color='red');
# cell 14
def optax_clustering_loss(params, X_clustered):
    """Given X and centroids, calculates clustering loss
    """
    all_squared_errors = jnp.array([jnp.sum(jnp.square(X - centroid), axis=1) for centroid in params['centroids']])
    loss = jnp.mean(jnp.min(all_squared_errors, axis=0))
    return loss
# cell 15
def kmeans_optax(X, optimizer, n_iter=100, r_tol=1e-4, k=5):
    params = {
        'centroids': centroids_kmeanspp_init(X, k=k)
    }
    opt_state = optimizer.init(params)

    @jax.jit
    def step(params, opt_state, X, k=k):
        loss, grads = jax.value_and_grad(
                optax_clustering_loss,
            )(params, X)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        return params, opt_state, loss
    
    for i in tqdm(range(n_iter)):
        params, opt_state, loss = step(params, opt_state, X, k=k)
    
    print(f'Best loss: {loss}')
    return params
# cell 16
optimizer = optax.adamw(learning_rate=1)
params = kmeans_optax(X, optimizer, k=5)
# cell 17
optax_best_labels = cluster(X, params['centroids'])
# cell 18
# print(f'Optax ARI: {ARI(y, optax_best_labels)}, Optax AMI:{AMI(y, optax_best_labels)}')  # scaffolding: sklearn metrics cut
# cell 19
plt.scatter(X[:,0], X[:,1], c=optax_best_labels);
plt.scatter(params['centroids'][:,0], params['centroids'][:,1], marker='+', color='red');
_report({"jit(get_dists)"}, 8)  # scaffolding: 4 calls in each of the two kmeans++ initialisations (cells 9 and 16)
