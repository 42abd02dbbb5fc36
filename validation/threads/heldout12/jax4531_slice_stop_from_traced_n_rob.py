# source: https://github.com/jax-ml/jax/issues/4531
# expect: trace-time-error at line 51
# runtime: ERROR IndexError
# why: n_rob is passed to the jitted compute_x as a traced argument, so the slice sol_x[0:n_rob*nvar] has a traced stop and cannot be a static slice.

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


def compute_x(num, n_con, n_rob, P, Ax_eq, bx_eq, 
                 Ay_eq, by_eq, Az_eq, bz_eq, Ax_eq_obs, 
              bx_eq_obs, Ay_eq_obs, by_eq_obs, Az_eq_obs, 
              bz_eq_obs, a, d_obs_ij, alpha_ij, beta_ij, 
              lamda_x, lamda_y, lamda_z,  rho_w_alpha, 
              cost_mat_inv_x, cost_mat_inv_y, cost_mat_inv_z):

    nvar = jnp.shape(P)[1]
    A_w = Ax_eq_obs
    
    aug_term = jnp.vstack(( bx_eq_obs+1.22*d_obs_ij*jnp.cos(alpha_ij)*jnp.sin(beta_ij)-lamda_x/rho_w_alpha,   by_eq_obs+1.22*d_obs_ij*jnp.sin(alpha_ij)*jnp.sin(beta_ij)-lamda_y/rho_w_alpha, bz_eq_obs+1.22*d_obs_ij*jnp.cos(beta_ij)-lamda_z/rho_w_alpha  ))
    linterm_augment = -rho_w_alpha*jnp.dot(A_w.T, aug_term.T ).T
    lincost_mat = jnp.hstack(( -linterm_augment, jnp.vstack(( bx_eq, by_eq, bz_eq  ))))

    sol_x = jnp.dot(cost_mat_inv_x, lincost_mat[0])
    sol_y = jnp.dot(cost_mat_inv_y, lincost_mat[1])
    sol_z = jnp.dot(cost_mat_inv_z, lincost_mat[2])

    primal_sol_x = sol_x[0:n_rob*nvar]
    primal_sol_y = sol_y[0:n_rob*nvar]
    primal_sol_z = sol_z[0:n_rob*nvar]

    cx = primal_sol_x[0:n_rob*nvar]
    cx = cx.reshape(n_rob, nvar)

    x = jnp.dot(P, cx.T).T
    wc_alpha = jnp.dot(A_w, primal_sol_x)-bx_eq_obs 
    cy = primal_sol_y[0:n_rob*nvar]
    return x, wc_alpha, cy  # scaffolding: the stored issue text stops here


n_rob, nvar, n_obs_rows, n_eq, T = 2, 3, 6, 2, 5  # scaffolding
K = n_rob * nvar  # scaffolding
key = jax.random.PRNGKey(0)  # scaffolding
P = jax.random.normal(key, (T, nvar))  # scaffolding
Aeq = jnp.ones((n_eq, K)); beq = jnp.ones(n_eq)  # scaffolding
Aobs = jax.random.normal(key, (n_obs_rows, K)); bobs = jnp.ones(n_obs_rows)  # scaffolding
v = jnp.linspace(0.1, 1.0, n_obs_rows)  # scaffolding
cost_inv = jnp.eye(K + n_eq)  # scaffolding
args = (0, 0, n_rob, P, Aeq, beq, Aeq, beq, Aeq, beq, Aobs, bobs, Aobs, bobs, Aobs, bobs,  # scaffolding
        0.0, v, v, v, v, v, v, 1.0, cost_inv, cost_inv, cost_inv)  # scaffolding
print(compute_x(*args)[0].shape)  # scaffolding: runs without jit
try:  # scaffolding
    jax.jit(compute_x)(*args)
    _report({"jit(compute_x)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
