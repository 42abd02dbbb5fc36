# source: https://github.com/deepmodeling/DMFF/commit/9b03c2b3c62325ba17a2d01cff351934931015c8
# expect: trace-time-error at line 92
# runtime: ERROR TracerArrayConversionError
# why: jaxopt.ScipyRootFinding (jit=False) hands its arguments to scipy's hybr solver, so inside the jitted potential it gets tracers and raises TracerArrayConversionError.

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


import jax
import jax.numpy as jnp
import jaxopt
from jax import grad, jit

DO_JIT = True  # scaffolding: dmff.settings


# dmff/utils.py
def jit_condition(*args, **kwargs):
    def jit_deco(func):
        if DO_JIT:
            return jit(func, *args, **kwargs)
        else:
            return func

    return jit_deco


@jit_condition()
def E_site2(chi, J, q):
    ene = (chi * q + 0.5 * J * q**2) * 96.4869
    return jnp.sum(ene)


class ADMPQeqForce:  # scaffolding: a cut-down ADMPQeqForce (constraint, site and a plain Coulomb term)
    def __init__(self, init_q, const_vals):
        self.init_q = init_q
        self.const_vals = const_vals
        self.init_lagmt = jnp.zeros(len(const_vals))
        self.slab_flag = False
        self.e_site = E_site2

    def e_constraint(self, q, lagmt, const_vals):  # scaffolding
        return jnp.sum(lagmt * (jnp.sum(q) - const_vals))

    def coul_energy(self, pos, pairs, q):  # scaffolding
        r = jnp.linalg.norm(pos[pairs[:, 0]] - pos[pairs[:, 1]], axis=1)
        return 138.935 * jnp.sum(q[pairs[:, 0]] * q[pairs[:, 1]] / r)

    # dmff/admp/qeq.py (cut down to the root finding)
    def generate_get_energy(self):
        @jit_condition()
        def E_full(q, lagmt, chi, J, pos, pairs):
            e1 = self.e_constraint(q, lagmt, self.const_vals)
            e3 = self.e_site(chi, J, q)
            e4 = self.coul_energy(pos, pairs, q)
            return e1 + e3 + e4

        grad_E_full = grad(E_full, argnums=(0, 1))

        @jit_condition()
        def E_grads(b_value, chi, J, positions, pairs):
            n_const = len(self.const_vals)
            q = b_value[:-n_const]
            lagmt = b_value[-n_const:]

            g1, g2 = grad_E_full(q, lagmt, chi, J, positions, pairs)
            g = jnp.concatenate((g1, g2))
            return g

        def get_energy(positions, pairs, chi, J):
            n_const = len(self.init_lagmt)
            b_value = jnp.concatenate([self.init_q, self.init_lagmt])
            rf = jaxopt.ScipyRootFinding(
                optimality_fun=E_grads, method="hybr", jit=False, tol=1e-10
            )
            b_0, _ = rf.run(b_value, chi, J, positions, pairs)
            b_0 = jax.lax.stop_gradient(b_0)
            q_0 = b_0[:-n_const]
            lagmt_0 = b_0[-n_const:]

            energy = E_full(q_0, lagmt_0, chi, J, positions, pairs)
            return energy

        return get_energy


force = ADMPQeqForce(jnp.zeros(4), jnp.array([0.0]))  # scaffolding: 4 sites, neutral
get_energy = jax.jit(force.generate_get_energy())  # scaffolding: the jitted potential the commit enables
pos = jnp.array([[0.0, 0.0, 0.0], [0.1, 0.0, 0.0], [0.0, 0.3, 0.0], [0.3, 0.3, 0.1]])  # scaffolding
pairs = jnp.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]])  # scaffolding
chi = jnp.array([1.0, -1.0, 0.5, -0.5])  # scaffolding
J = jnp.array([20.0, 20.0, 20.0, 20.0])  # scaffolding
calls = 0
try:  # scaffolding
    for _ in range(3):
        e = get_energy(pos, pairs, chi, J)
        calls += 1
    _report({"jit(get_energy)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
