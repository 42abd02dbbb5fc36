# source: https://github.com/julesberman/hflow/blob/2cface22136c36fca7843229696e14fa2d74e969/hflow/data/get.py
# expect: jit-in-loop-or-body at line 73
# runtime: COMPILES 9 CALLS 180
# why: get_data loops over the interaction strengths mus and calls get_mdyn_sol for each; get_mdyn_sol defines a new @jit time_step closure (baking alpha, gamma and tau in) on every call, so the particle time step is traced and compiled again for every parameter value although its shapes never change.

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
# --- julesberman/hflow @2cface2: hflow/data/mdyn.py (get_V_cell, get_mdyn_sol) ---
import jax
import jax.numpy as jnp
import jax.random as random
import numpy as np
from jax import jit, vmap

def get_V_cell(D):
    pi = jnp.pi

    x0 = jnp.concatenate(
        (0.95*jnp.array([jnp.cos(pi/6),   jnp.sin(pi/6)]), jnp.zeros(D-2)), axis=0)
    x1 = jnp.concatenate(
        (1.05*jnp.array([jnp.cos(5*pi/6), jnp.sin(5*pi/6)]), jnp.zeros(D-2)), axis=0)
    x2 = jnp.concatenate(
        (1.00*jnp.array([jnp.cos(-pi/2),  jnp.sin(-pi/2)]), jnp.zeros(D-2)), axis=0)

    @jit
    def V(x):
        return 4 * jnp.sum((x - x0)**2) * jnp.sum((x - x1)**2) * jnp.sum((x - x2)**2)

    return V


def get_mdyn_sol(key, dim, N, gamma=0.05, alpha=0, sigma=0.0, dt=5e-3, tau=None):
    # gamma is the width of the interaction kernel
    # alpha is the strength of the interaction
    # tau is the friction coefficient (tau = dt, alpha = 0 gives gradient flow)
    if tau is None:
        tau = dt
    SD_0 = 0.2

    V = get_V_cell(dim)
    particles = SD_0 * random.normal(key, (N, dim))

    def interaction_potential(x, y):
        r = jnp.sum((x - y)**2)
        return jnp.exp(-r/2/gamma**2)

    def bulk_interaction_potential(x, particles):
        return jnp.sum(vmap(lambda y: interaction_potential(x, y))(particles)) / particles.shape[0]

    t_eval = np.linspace(dt, 1, int(1/dt+1))

    @jit
    def time_step(particles, velocities, dt, key):
        # dx = -grad V(x)dt + v dt + sigma dB
        # dv = grad g(rho)(x)dt
        gradV = jax.grad(V)
        gradG = jax.grad(lambda x: bulk_interaction_potential(x, particles))
        if sigma != 0:
            dB = sigma * dt**0.5 * random.normal(key, particles.shape)
        else:
            dB = 0
        velocities -= velocities * dt / tau
        velocities -= jax.vmap(gradV)(particles) * dt / tau
        if alpha != 0:
            velocities -= alpha * jax.vmap(gradG)(particles) * dt
        particles += dt * velocities + dB
        return particles, velocities

    velocities = jnp.zeros_like(particles)
    sol = [particles]
    keys = random.split(key, len(t_eval))
    for i in range(len(t_eval[1:])):
        particles, velocities = time_step(particles, velocities, dt, keys[i])
        sol.append(particles)
    sol = jnp.stack(sol, axis=0)

    return sol


# --- hflow/data/get.py @2cface2, the 'mdyn' branch of get_data ---
key = jax.random.PRNGKey(0)  # scaffolding
n_samples = 16  # scaffolding: data_cfg.n_samples
sols = []
problem = 'mdyn'  # scaffolding
if problem == 'mdyn':
    train_mus = np.asarray([0.0, 1, 1e1, 1e2, 1e3, 1e4])
    test_mus = np.asarray([0.01, 5e1, 5e3])
    mus = np.concatenate([train_mus, test_mus])
    system_dim = 2  # scaffolding: data_cfg.dim
    _dt = 0.05  # scaffolding: data_cfg.dt (20 steps per run)

    mus = np.concatenate([train_mus, test_mus])
    for mu in mus:
        res = get_mdyn_sol(key, system_dim, n_samples,
                           gamma=0.1, alpha=mu, sigma=0, dt=_dt)
        sols.append(res)
    sols = np.asarray(sols)
print(sols.shape)
_report({"jit(time_step)"}, len(mus) * (sols.shape[1] - 1))  # scaffolding: calls of the jitted time_step
