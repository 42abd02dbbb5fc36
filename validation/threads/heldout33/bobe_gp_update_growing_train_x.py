# source: https://github.com/Ameek94/BOBE/blob/3d6adc8c7091baecdcd2213fa4b821ec7b71e957/BOBE/gp.py
# expect: shape-churn at line 117
# runtime: COMPILES 6 CALLS 6
# why: GP.update stacks each new Bayesian-optimisation point onto train_x and recompute_cholesky calls the jitted rbf_kernel with the grown (n, d) array, so the kernel is retraced and recompiled on every update.

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


from math import sqrt,pi
import jax.numpy as jnp
import numpy as np
import jax
from jax.scipy.linalg import cho_solve, solve_triangular
jax.config.update("jax_enable_x64", True)
from functools import partial

safe_noise_floor = 1e-12


def dist_sq(x, y):
    return jnp.sum(jnp.square(x[:,None,:] - y[None,:,:]),axis=-1) 

@partial(jax.jit,static_argnames='include_noise')
def rbf_kernel(xa,xb,lengthscales,kernel_variance,noise,include_noise=True):
    sq_dist = dist_sq(xa/lengthscales,xb/lengthscales) 
    sq_dist = jnp.exp(-0.5*sq_dist)
    k = kernel_variance*sq_dist
    if include_noise:
        k+= noise*jnp.eye(k.shape[0])
    return k


class GP:
    # scaffolding: __init__ trimmed to the data/kernel/cholesky setup (priors, optimizer, bounds cut)
    def __init__(self,train_x,train_y,noise=1e-8,kernel="rbf",lengthscales=None,kernel_variance=None):
        self._setup_training_data(train_x, train_y)
        self.kernel_name = kernel if kernel == "rbf" else "matern"
        self.kernel = rbf_kernel
        self.lengthscales = lengthscales if lengthscales is not None else jnp.ones(self.ndim)
        self.kernel_variance = kernel_variance if kernel_variance is not None else 1.0
        self.noise = noise
        
        # Compute initial kernel matrices
        K = self.kernel(self.train_x, self.train_x, self.lengthscales, self.kernel_variance, noise=self.noise, include_noise=True)
        self.cholesky = jnp.linalg.cholesky(K)
        self.alphas = cho_solve((self.cholesky, True), self.train_y)

    def _setup_training_data(self, train_x, train_y):
        """Setup and validate training data, compute standardization parameters."""
        if train_y.ndim != 2:
            train_y = train_y.reshape(-1, 1)
        self.ndim = train_x.shape[1]
        self.y_mean = jnp.mean(train_y) if train_y.size > 0 else 0 
        self.y_std = jnp.std(train_y) if train_y.size > 0 else 1.0
        self.train_x = jnp.array(train_x)
        self.train_y = (train_y - self.y_mean) / self.y_std

    def update(self,new_x,new_y):
        new_x = jnp.atleast_2d(new_x)
        new_y = jnp.atleast_2d(new_y)

        duplicate = False
        new_pts_to_add = []
        new_vals_to_add = []
        
        # Check for duplicates and collect new points
        for i in range(new_x.shape[0]):
            if jnp.any(jnp.all(jnp.isclose(self.train_x, new_x[i], atol=1e-6, rtol=1e-4), axis=1)):
                pass  # scaffolding: log.debug cut
            else:
                new_pts_to_add.append(new_x[i])
                new_vals_to_add.append(new_y[i])

        # Add new points if any
        if new_pts_to_add:
            new_pts_to_add = jnp.array(new_pts_to_add)
            new_vals_to_add = jnp.array(new_vals_to_add)
            
            # Add to training data
            self.train_x = jnp.vstack([self.train_x, new_pts_to_add])
            train_y_original = jnp.vstack([self.train_y * self.y_std + self.y_mean, new_vals_to_add])
            
            self.y_mean = jnp.mean(train_y_original)
            self.y_std = jnp.std(train_y_original)
            
            if self.y_std == 0:
                self.y_std = 1.0
            
            self.train_y = (train_y_original - self.y_mean) / self.y_std

            self.recompute_cholesky()


    def recompute_cholesky(self):
        """
        Recomputes the Cholesky decomposition and alphas. Useful if hyperparameters are changed manually.
        """
        K = self.kernel(self.train_x, self.train_x, self.lengthscales, self.kernel_variance, noise=self.noise, include_noise=True)
        self.cholesky = jnp.linalg.cholesky(K)
        self.alphas = cho_solve((self.cholesky, True), self.train_y)


# scaffolding: a BO-style loop adding one evaluated point per iteration
rng = np.random.default_rng(0)
f = lambda x: -np.sum((x - 0.3) ** 2, axis=-1, keepdims=True)
X0 = rng.uniform(size=(8, 2)); gp = GP(X0, f(X0))
n_updates = 5
for it in range(n_updates):
    x_new = rng.uniform(size=(1, 2))
    gp.update(x_new, f(x_new))
_report({"jit(rbf_kernel)"}, 1 + n_updates)  # scaffolding
