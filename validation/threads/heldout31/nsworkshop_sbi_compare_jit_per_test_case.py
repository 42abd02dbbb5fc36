# source: https://github.com/handley-lab/workshop-blackjax-nested-sampling/blob/4b799c16fab1280e0d159f60ea364a878d5284b2/workshop_nested_sampling.ipynb
# expect: jit-in-loop-or-body at line 136
# runtime: COMPILES 2 CALLS 4
# why: The SBI comparison loop defines a new test_loglikelihood closure, builds a new blackjax.nss sampler and wraps its init/step in fresh jax.jit objects for every test case, so the nested-sampling step is traced and compiled again on each iteration.

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
# (notebook workshop_nested_sampling.ipynb flattened: cells 3, 5, 8, 79, 81, 89 (prior bounds only), 105, 107;
#  pip cells, plotting, the line/2D-Gaussian parts and the SBI network training cut)
# cell 3
import jax
# cell 5
jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp
import numpy as np
import time
import blackjax
# cell 8
rng_key = jax.random.PRNGKey(42)
num_live = 100
num_delete = 50
# cell 79
# Define true parameters for image-based 2D Gaussian
jax_true = {
    'mu_x': 0.1, 'mu_y': -0.1,
    'sigma_x': 0.15, 'sigma_y': 0.12,
    'rho': 0.3
}

# Create coordinate grid for 2D Gaussian evaluation
grid_size = 32  # Smaller for computational efficiency
x_grid_2d = jnp.linspace(-0.8, 0.8, grid_size)
y_grid_2d = jnp.linspace(-0.8, 0.8, grid_size)
x_meshgrid, y_meshgrid = jnp.meshgrid(x_grid_2d, y_grid_2d)
xy_points_2d = jnp.stack([x_meshgrid.ravel(), y_meshgrid.ravel()], axis=-1)
# cell 81
@jax.jit
def jax_simulator(params, rng_key):
    """
    JAX-compiled 2D Gaussian image simulator.
    """
    mu_x, mu_y, sigma_x, sigma_y, rho = params
    
    # Construct mean and covariance matrix
    mu = jnp.array([mu_x, mu_y])
    cov = jnp.array([
        [sigma_x**2, rho * sigma_x * sigma_y],
        [rho * sigma_x * sigma_y, sigma_y**2]
    ])
    
    # Evaluate 2D Gaussian probability density on grid
    logpdf_grid = jax.scipy.stats.multivariate_normal.logpdf(xy_points_2d, mu, cov)
    pdf_grid = jnp.exp(logpdf_grid).reshape(x_meshgrid.shape)
    
    # Add noise
    noise = 0.02 * jax.random.normal(rng_key, shape=pdf_grid.shape)
    noisy_image = pdf_grid + noise
    
    return noisy_image
# cell 89 (prior bounds only)
image_prior_bounds = {
    'mu_x': (-0.5, 0.5),
    'mu_y': (-0.5, 0.5),
    'sigma_x': (0.05, 0.3),
    'sigma_y': (0.05, 0.3),
    'rho': (-0.8, 0.8),
}
# cell 91
columns_image = ['mu_x', 'mu_y', 'sigma_x', 'sigma_y', 'rho']
# cell 105
n_test_sbi = 100
key, rng_key = jax.random.split(rng_key)
# scaffolding: generate_sbi_dataset (cell 97) and the trained NPE network (cells 99-103) replaced by
# prior draws pushed through the simulator, and the true parameters used as the "SBI prediction"
sbi_bounds = jnp.array([[-0.5, 0.5], [-0.5, 0.5], [0.05, 0.3], [0.05, 0.3], [-0.8, 0.8]])  # scaffolding
key_prior, key_sim = jax.random.split(key)  # scaffolding
test_sbi_params = jax.random.uniform(key_prior, (n_test_sbi, 5)) * (sbi_bounds[:, 1] - sbi_bounds[:, 0]) + sbi_bounds[:, 0]  # scaffolding
test_sbi_sims = jax.vmap(jax_simulator)(test_sbi_params, jax.random.split(key_sim, n_test_sbi))  # scaffolding
test_predictions = test_sbi_params  # scaffolding
# cell 107
print("Comparing nested sampling and SBI approaches...")

# For a fair comparison, run nested sampling on a few test cases
comparison_results = []

for i in range(2):  # Compare on 3 test cases  (scaffolding: cut to 2)
    test_obs = test_sbi_sims[i]
    true_params = test_sbi_params[i]
    
    # SBI prediction
    sbi_pred = test_predictions[i]
    
    # Nested sampling inference  
    def test_loglikelihood(params_dict):
        params_array = jnp.array([params_dict['mu_x'], params_dict['mu_y'], 
                                 params_dict['sigma_x'], params_dict['sigma_y'], 
                                 params_dict['rho']])
        pred_image = jax_simulator(params_array, jax.random.PRNGKey(42))
        sigma_obs = 0.02
        return jnp.sum(jax.scipy.stats.norm.logpdf(test_obs, pred_image, sigma_obs))
    
    # Quick nested sampling run (fewer live points for speed)
    rng_key, prior_key = jax.random.split(rng_key)
    particles_test, logprior_fn_test = blackjax.ns.utils.uniform_prior(prior_key, 50, image_prior_bounds)
    
    nested_sampler_test = blackjax.nss(
        logprior_fn=logprior_fn_test,
        loglikelihood_fn=test_loglikelihood,
        num_delete=25,
        num_inner_steps=15,
    )
    
    init_fn_test = jax.jit(nested_sampler_test.init)
    step_fn_test = jax.jit(nested_sampler_test.step)
    
    # Run nested sampling
    ns_test_start = time.time()
    live_test = init_fn_test(particles_test)
    dead_test = []
    
    # Shorter run for comparison
    while len(dead_test) < 2:  # scaffolding: 10 steps cut to 2
        rng_key, subkey = jax.random.split(rng_key, 2)
        live_test, dead_info_test = step_fn_test(subkey, live_test)
        dead_test.append(dead_info_test)
    
    ns_test_time = time.time() - ns_test_start
    
    # Get posterior mean from nested sampling
    dead_test = blackjax.ns.utils.finalise(live_test, dead_test)
    data_test = jnp.vstack([dead_test.particles.position[key] for key in columns_image]).T  # scaffolding: blackjax 1.7 keeps positions in particles.position
    ns_mean = jnp.mean(data_test, axis=0)
    
    comparison_results.append({
        'true': true_params,
        'sbi': sbi_pred,
        'ns': ns_mean,
        'ns_time': ns_test_time
    })
_report({"jit(step_fn)"}, 2 * 2)  # scaffolding
