# source: https://github.com/PredictiveIntelligenceLab/JAX-BO/blob/d6839997cfe98e313629de54aa3db25626002667/examples/bo_tutorial.ipynb
# expect: shape-churn at line 213
# runtime: COMPILES 4 CALLS 4
# why: The Bayesian-optimisation loop appends the new point to X and y every iteration and retrains the GP, whose likelihood_value_and_grad is jitted (static self) over the whole data batch, so each iteration brings a new N and recompiles the likelihood.

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
# (notebook examples/bo_tutorial.ipynb flattened: cells 0, 1, 3; the jaxbo package of the same repository is inlined
#  where the loop uses it: GP.train / likelihood / compute_cholesky, kernels.RBF, utils.normalize,
#  optimizers.minimize_lbfgs, initializers.random_init_GP)
import numpy as onp
import jax.numpy as np
from jax import random, vmap, jit, vjp
from jax.scipy.linalg import cholesky, solve_triangular
from functools import partial
import jax
jax.config.update("jax_enable_x64", True)  # scaffolding: was `from jax.config import config; config.update(...)`

from scipy.optimize import minimize


# --- jaxbo (inlined, scaffolding) ---
@jit
def RBF(x1, x2, params):  # jaxbo/kernels.py
    output_scale = params[0]
    lengthscales = params[1:]
    diffs = np.expand_dims(x1 / lengthscales, 1) - \
            np.expand_dims(x2 / lengthscales, 0)
    r2 = np.sum(diffs**2, axis=2)
    return output_scale * np.exp(-0.5 * r2)


def normalize(X, y, bounds):  # jaxbo/utils.py
    mu_y, sigma_y = y.mean(0), y.std(0)
    X = (X - bounds['lb'])/(bounds['ub']-bounds['lb'])
    y = (y - mu_y)/sigma_y
    batch = {'X': X, 'y': y}
    norm_const = {'mu_y': mu_y, 'sigma_y': sigma_y}
    return batch, norm_const


def minimize_lbfgs(objective, x0, verbose = False, maxfun = 15000, bnds = None):  # jaxbo/optimizers.py
    result = minimize(objective, x0, jac=True,
                      method='L-BFGS-B', bounds = bnds,
                      callback=None, options = {'maxfun': 20})  # scaffolding: maxfun 15000 cut to 20
    return result.x, result.fun


def random_init_GP(rng_key, dim):  # jaxbo/initializers.py
    logsigma_f = np.log(50.0*random.uniform(rng_key, (1,)))
    loglength  = np.log(random.uniform(rng_key, (dim,)) + 1e-8)
    logsigma_n = np.array([-4.0]) + random.normal(rng_key, (1,))
    hyp = np.concatenate([logsigma_f, loglength, logsigma_n])
    return hyp


class GPmodel():  # jaxbo/models.py (kernel selection and likelihood only)
    def __init__(self, options):
        # Initialize the class
        self.options = options
        self.input_prior = options['input_prior']
        if options['kernel'] == 'RBF':
            self.kernel = RBF

    @partial(jit, static_argnums=(0,))
    def likelihood(self, params, batch):
        y = batch['y']
        N = y.shape[0]
        # Compute Cholesky
        L = self.compute_cholesky(params, batch)
        # Compute negative log-marginal likelihood
        alpha = solve_triangular(L.T,solve_triangular(L, y, lower=True))
        NLML = 0.5*np.matmul(np.transpose(y),alpha) + \
               np.sum(np.log(np.diag(L))) + 0.5*N*np.log(2.0*np.pi)
        return NLML

    @partial(jit, static_argnums=(0,))
    def likelihood_value_and_grad(self, params, batch):
        fun = lambda params: self.likelihood(params, batch)
        primals, f_vjp = vjp(fun, params)
        grads = f_vjp(np.ones_like(primals))[0]
        return primals, grads


class GP(GPmodel):
    # Initialize the class
    def __init__(self, options):
        super().__init__(options)

    @partial(jit, static_argnums=(0,))
    def compute_cholesky(self, params, batch):
        X = batch['X']
        N, D = X.shape
        # Fetch params
        sigma_n = np.exp(params[-1])
        theta = np.exp(params[:-1])
        # Compute kernel
        K = self.kernel(X, X, theta) + np.eye(N)*(sigma_n + 1e-8)
        L = cholesky(K, lower=True)
        return L

    def train(self, batch, rng_key, num_restarts = 10):
        # Define objective that returns NumPy arrays
        def objective(params):
            value, grads = self.likelihood_value_and_grad(params, batch)
            out = (onp.array(value), onp.array(grads))
            return out
        # Optimize with random restarts
        params = []
        likelihood = []
        dim = batch['X'].shape[1]
        rng_key = random.split(rng_key, num_restarts)
        for i in range(num_restarts):
            init = random_init_GP(rng_key[i], dim)
            p, val = minimize_lbfgs(objective, init)
            params.append(p)
            likelihood.append(val)
        params = np.vstack(params)
        likelihood = np.vstack(likelihood)
        #### find the best likelihood besides nan ####
        bestlikelihood = np.nanmin(likelihood)
        idx_best = np.where(likelihood == bestlikelihood)
        idx_best = idx_best[0][0]
        best_params = params[idx_best,:]

        return best_params
# --- end jaxbo ---


def oakley():  # scaffolding: stand-in for jaxbo.test_functions.oakley (2-D)
    dim = 2
    lb, ub = -3.0 * np.ones(dim), 3.0 * np.ones(dim)
    f = lambda x: np.sum(np.sin(x) + 0.1 * x ** 2)
    return f, None, dim, lb, ub


def lhs(dim, n):  # scaffolding: stand-in for pyDOE.lhs
    return onp.random.rand(n, dim)


onp.random.seed(1234)
# cell 1
# Define test function
f, p_x, dim, lb, ub = oakley()

# Problem settings
N = 5
noise = 0.0
options = {'kernel': 'RBF',
           'criterion': 'LW-LCB', 
           'input_prior': p_x,
           'kappa': 2.0,
           'nIter': 4}  # scaffolding: 20 iterations cut to 4
gp_model = GP(options)

# Domain bounds
bounds = {'lb': lb, 'ub': ub}

# Initial training data
X = lb + (ub-lb)*lhs(dim, N)
y = vmap(f)(X)
y = y + noise*y.std(0)*onp.random.normal(y.shape)
# (test grid and true minimum of cell 1 cut)
# cell 3
# Main Bayesian optimization loop
rng_key = random.PRNGKey(0)
for it in range(options['nIter']):
    print('-------------------------------------------------------------------')
    print('------------------------- Iteration %d/%d -------------------------' % (it+1, options['nIter']))
    print('-------------------------------------------------------------------')

    # Fetch normalized training data
    norm_batch, norm_const = normalize(X, y, bounds)

    # Train GP model
    print('Train GP...')
    rng_key = random.split(rng_key)[0]
    opt_params = gp_model.train(norm_batch,
                                rng_key,
                                num_restarts = 2)  # scaffolding: 10 restarts cut to 2

    # scaffolding: GMM fit and acquisition minimisation (gp_model.fit_gmm, compute_next_point_lbfgs) replaced by a random point
    print('Computing next acquisition point...')
    new_X = lb + (ub-lb)*lhs(dim, 1)  # scaffolding

    # Acquire data
    new_y = vmap(f)(new_X)
    new_y = new_y + noise*new_y.std(0)*onp.random.normal(new_y.shape)

    # Augment training data
    print('Updating data-set...')
    X = np.concatenate([X, new_X], axis = 0)
    y = np.concatenate([y, new_y], axis = 0)

    # Print current best
    idx_best = np.argmin(y)
    best_x = X[idx_best,:]
    best_y = y.min()
_report({"jit(likelihood_value_and_grad)"}, options['nIter'])  # scaffolding: one GP training (several jitted calls) per iteration
