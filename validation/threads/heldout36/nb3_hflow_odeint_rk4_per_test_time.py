# source: https://github.com/julesberman/hflow/blob/aa6d2e910d5daceeffc4a7f232579859cfbf14bf/hflow/test/test.py
# expect: jit-in-loop-or-body at line 36
# runtime: COMPILES 5 CALLS 5
# why: solve_test_cfm loops over the test times and calls odeint_rk4 with a freshly built vector field each time; odeint_rk4 wraps a new @jit rk4 around it and runs an eager lax.scan, so the scan is traced and compiled again for every test time.

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
# --- julesberman/hflow @aa6d2e9: hflow/data/ode.py (odeint_rk4) ---
import jax
import jax.numpy as jnp
from jax import jit, vmap
from tqdm import tqdm

def odeint_rk4(fn, y0, t, downsampler=lambda x: x):
    @jit
    def rk4(carry, t):
        y, t_prev = carry
        h = t - t_prev
        k1 = fn(t_prev, y)
        k2 = fn(t_prev + h / 2, y + h * k1 / 2)
        k3 = fn(t_prev + h / 2, y + h * k2 / 2)
        k4 = fn(t, y + h * k3)
        y = y + 1.0 / 6.0 * h * (k1 + 2 * k2 + 2 * k3 + k4)
        yd = downsampler(y)
        return (y, t), yd

    (yf, _), y = jax.lax.scan(rk4, (y0, jnp.array(t[0])), t)
    return y


# --- hflow/test/test.py (solve_test_cfm) ---
def solve_test_cfm(s_fn, params, ics, t_int, mu, T):

    s_Vx = vmap(s_fn, (None, 0, None))
    taus = jnp.linspace(0, 1, T)

    def integrate(mu, T, params):

        def fn(tau, y):
            mu_t_tau = jnp.concatenate(
                [mu.reshape(1), T.reshape(1), tau.reshape(1)])
            return s_Vx(mu_t_tau, y, params)

        sol = odeint_rk4(fn, ics, taus)

        return sol[-1]

    test_sol = []
    for T in tqdm(t_int, desc="CFM"):
        s = integrate(mu, T, params)
        test_sol.append(s)

    test_sol = jnp.asarray(test_sol)
    test_sol = jnp.squeeze(test_sol)

    return test_sol


# --- driver (scaffolding): a stand-in for the trained flow-matching network s_fn and its test call ---
def s_fn(mu_t_tau, x, params):  # scaffolding: stands in for the MLP of hflow's model
    return jnp.tanh(params["w"] * x + mu_t_tau.sum())


params = {"w": jnp.float32(0.5)}  # scaffolding
ics = jnp.ones((16, 2))  # scaffolding: 16 particles in 2D
t_int = jnp.linspace(0.0, 1.0, 5)  # scaffolding: 5 test times
mu = jnp.array([0.3])  # scaffolding
test_sol = solve_test_cfm(s_fn, params, ics, t_int, mu, T=10)
print(test_sol.shape)
_report({"jit(scan)", "jit(rk4)"}, len(t_int))  # scaffolding
