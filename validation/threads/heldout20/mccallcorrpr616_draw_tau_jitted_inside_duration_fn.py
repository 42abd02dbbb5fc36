# source: https://github.com/QuantEcon/lecture-python.myst/pull/616
# expect: jit-in-loop-or-body at line 149
# runtime: COMPILES 16 CALLS 16
# why: compute_unemployment_duration defines @jax.jit draw_τ (and f_star_function) inside its body, so each of the 16 parameter values builds a new jitted function and draw_τ is traced and compiled again every call.
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
# QuantEcon/lecture-python.myst PR #616: mccall_correlated after the JAX conversion, durations simulated per parameter value
import jax
import jax.numpy as jnp
import jax.random as jr
from typing import NamedTuple

class JobSearchModel(NamedTuple):
    μ: float     # transient shock log mean
    s: float     # transient shock log variance  
    d: float     # shift coefficient of persistent state
    ρ: float     # correlation coefficient of persistent state
    σ: float     # state volatility
    β: float     # discount factor
    c: float     # unemployment compensation
    z_grid: jnp.ndarray 
    e_draws: jnp.ndarray

def create_job_search_model(μ=0.0, s=1.0, d=0.0, ρ=0.9, σ=0.1, β=0.98, c=5.0, 
                           mc_size=1000, grid_size=100, key=jr.PRNGKey(1234)):
    """
    Create a JobSearchModel with computed grid and draws.
    """
    # Set up grid
    z_mean = d / (1 - ρ)
    z_sd = σ / jnp.sqrt(1 - ρ**2)
    k = 3  # std devs from mean
    a, b = z_mean - k * z_sd, z_mean + k * z_sd
    z_grid = jnp.linspace(a, b, grid_size)

    # Draw and store shocks
    e_draws = jr.normal(key, (2, mc_size))

    return JobSearchModel(μ=μ, s=s, d=d, ρ=ρ, σ=σ, β=β, c=c, 
                         z_grid=z_grid, e_draws=e_draws)

def Q(model, f_in):
    """
    Apply the operator Q.

        * model is an instance of JobSearchModel
        * f_in is an array that represents f
        * returns Qf

    """
    μ, s, d = model.μ, model.s, model.d
    ρ, σ, β, c = model.ρ, model.σ, model.β, model.c
    z_grid, e_draws = model.z_grid, model.e_draws
    M = e_draws.shape[1]

    def compute_expectation(z):
        def evaluate_shock(e):
            e1, e2 = e[0], e[1]
            z_next = d + ρ * z + σ * e1
            go_val = jnp.interp(z_next, z_grid, f_in)  # f(z')
            y_next = jnp.exp(μ + s * e2)               # y' draw
            w_next = jnp.exp(z_next) + y_next          # w' draw
            stop_val = jnp.log(w_next) / (1 - β)
            return jnp.maximum(stop_val, go_val)
        
        expectations = jax.vmap(evaluate_shock)(e_draws.T)
        return jnp.mean(expectations)

    expectations = jax.vmap(compute_expectation)(z_grid)
    f_out = jnp.log(c) + β * expectations
    return f_out

@jax.jit  
def compute_fixed_point(model, tol=1e-4, max_iter=1000):
    """
    Compute an approximation to the fixed point of Q.
    """
    
    def cond_fun(loop_state):
        f, i, error = loop_state
        return jnp.logical_and(error > tol, i < max_iter)
    
    def body_fun(loop_state):
        f, i, error = loop_state
        f_new = Q(model, f)
        error_new = jnp.max(jnp.abs(f_new - f))
        return f_new, i + 1, error_new
    
    # Initial state
    f_init = jnp.full(len(model.z_grid), jnp.log(model.c))
    init_state = (f_init, 0, tol + 1)
    
    # Run iteration
    f_final, iterations, final_error = jax.lax.while_loop(
        cond_fun, body_fun, init_state
    )
    
    return f_final

model = create_job_search_model()

f_star = compute_fixed_point(model).block_until_ready()  # scaffolding: qe.Timer() dropped

res_wage_function = jnp.exp(f_star * (1 - model.β))

c_vals = 1, 2, 3


for c in c_vals:
    model = create_job_search_model(c=c)
    f_star = compute_fixed_point(model)
    res_wage_function = jnp.exp(f_star * (1 - model.β))


def compute_unemployment_duration(
        model, key=jr.PRNGKey(1234), num_reps=100_000
    ):
    """
    Compute expected unemployment duration.

    """
    f_star = compute_fixed_point(model)
    μ, s, d = model.μ, model.s, model.d
    ρ, σ, β, c = model.ρ, model.σ, model.β, model.c
    z_grid = model.z_grid

    @jax.jit
    def f_star_function(z):
        return jnp.interp(z, z_grid, f_star)

    @jax.jit
    def draw_τ(key, t_max=10_000):
        def cond_fun(loop_state):
            z, t, unemployed, key = loop_state
            return jnp.logical_and(unemployed, t < t_max)
        
        def body_fun(loop_state):
            z, t, unemployed, key = loop_state
            key1, key2, key = jr.split(key, 3)
            
            # Draw current wage
            y = jnp.exp(μ + s * jr.normal(key1))
            w = jnp.exp(z) + y
            res_wage = jnp.exp(f_star_function(z) * (1 - β))
            
            # Check if optimal to stop
            accept = w >= res_wage
            τ = jnp.where(accept, t, t_max)
            
            # Update state if not accepting
            z_new = jnp.where(accept, z, 
                                ρ * z + d + σ * jr.normal(key2))
            t_new = t + 1
            unemployed_new = jnp.logical_not(accept)
            
            return z_new, t_new, unemployed_new, key
        
        # Initial loop_state: (z, t, unemployed, key)
        init_state = (0.0, 0, True, key)
        z_final, t_final, unemployed_final, _ = jax.lax.while_loop(
            cond_fun, body_fun, init_state)
        
        # Return final time if job found, otherwise t_max
        return jnp.where(unemployed_final, t_max, t_final)

    # Generate keys for all simulations
    keys = jr.split(key, num_reps)
    
    # Vectorize over simulations
    τ_vals = jax.vmap(draw_τ)(keys)
    
    return jnp.mean(τ_vals)

c_vals = jnp.linspace(1.0, 10.0, 8)
durations = []
for i, c in enumerate(c_vals):
    model = create_job_search_model(c=c)
    τ = compute_unemployment_duration(model, num_reps=10_000)
    durations.append(τ)
durations = jnp.array(durations)


beta_vals = jnp.linspace(0.94, 0.99, 8)
durations = []
for i, β in enumerate(beta_vals):
    model = create_job_search_model(β=β)
    τ = compute_unemployment_duration(model, num_reps=10_000)
    durations.append(τ)
durations = jnp.array(durations)
_report({"jit(draw_τ)"}, len(c_vals) + len(beta_vals))  # scaffolding
