# source: https://github.com/kemasuda/jnkepler/commit/62b4d69d19ab6d4387065ebc22e44db2f5e3bb77
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The fix moves the integration into a module-level integrate_orbits_symplectic jitted once with the state as arguments (nitr_kepler static), so repeated calls reuse one compile.

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
import numpy as np
import jax
import jax.numpy as jnp
from functools import partial
from jax import jit, grad
jax.config.update('jax_enable_x64', True)  # was `from jax.config import config; config.update(...)`, gone in jax 0.10


# --- scaffolding: small stand-ins for jnkepler's conversion/symplectic/findtransit modules ---
def initialize_jacobi_xv(elements, masses, t0):  # scaffolding
    a = elements[:, 0] ** (2.0 / 3.0)
    x = jnp.stack([a * jnp.cos(elements[:, 1]), a * jnp.sin(elements[:, 1]), 0.0 * a], axis=1)
    v = jnp.stack([-jnp.sin(elements[:, 1]), jnp.cos(elements[:, 1]), 0.0 * a], axis=1) / jnp.sqrt(a)[:, None]
    return x, v


def integrate_xv(x0, v0, masses, times, nitr=3):  # scaffolding: leapfrog stand-in for the symplectic integrator
    dt = times[1] - times[0]

    def step(xv, t):
        x, v = xv
        r3 = jnp.sum(x ** 2, axis=1, keepdims=True) ** 1.5
        v = v - dt * x / r3
        x = x + dt * v
        return (x, v), jnp.stack([x, v])

    _, xv = jax.lax.scan(step, (x0, v0), times)
    return times, xv


def get_energy_diff_jac(xvjac, masses, dt_correct):  # scaffolding
    e = 0.5 * jnp.sum(xvjac[:, 1] ** 2, axis=(1, 2)) - jnp.sum(1.0 / jnp.linalg.norm(xvjac[:, 0], axis=-1), axis=1)
    return e[-1] / e[0] - 1.0


def kepler_step_map(x, v, masses, dt):  # scaffolding
    return x + dt * v, v


def xvjac_to_xvacm(xjac, vjac, masses):  # scaffolding
    acm = -xjac / jnp.sum(xjac ** 2, axis=-1, keepdims=True) ** 1.5
    return xjac, vjac, acm


def find_transit_times_single(t, xcm, vcm, acm, pidx, masses, nitr=5):  # scaffolding: sign changes of x on the +y side
    x = np.asarray(xcm[:, pidx - 1, 0])
    y = np.asarray(xcm[:, pidx - 1, 1])
    idx = np.where((x[:-1] < 0) & (x[1:] >= 0) & (y[:-1] > 0))[0]
    return np.asarray(t)[idx]
# --- end scaffolding ---


@partial(jit, static_argnums=(5,))
def integrate_orbits_symplectic(xjac0, vjac0, masses, times, dt, nitr_kepler):
    """ symplectic integration of the orbits
    """
    # symplectic integration
    t, xvjac = integrate_xv(xjac0, vjac0, masses, times, nitr=nitr_kepler)

    # account for the fact that output of integrate_xv is dt/2 ahead of the completion of the sympletic step
    dt_correct = -0.5 * dt
    de_frac = get_energy_diff_jac(xvjac, masses, dt_correct)
    t += dt_correct
    xjac, vjac = kepler_step_map(xvjac[:,0,:,:], xvjac[:,1,:,:], masses, dt_correct)

    # conversion to CM frame
    xcm, vcm, acm = xvjac_to_xvacm(xjac, vjac, masses)

    return t, xcm, vcm, acm, de_frac


class JaxTTV:
    """ main class for TTV analysis """
    def __init__(self, t_start, t_end, dt, nitr_kepler=3, transit_time_method='newton-raphson', nitr_transit=5):
        self.t_start = t_start
        self.t_end = t_end
        self.dt = dt
        self.times = jnp.arange(t_start, t_end, dt)
        self.nitr_kepler = nitr_kepler
        self.transit_time_method = transit_time_method
        self.nitr_transit = nitr_transit

    def get_ttvs_nodata(self, elements, masses, t_start=None, t_end=None, dt=None, flatten=False,
        nitr_transit=5, nitr_kepler=3, symplectic=True):
        """ compute all model transit times between t_start and t_end
        This function is slower than get_ttvs and should not be used for fitting.
        """
        #if t_start is not None:
        #    times, t0 = jnp.arange(t_start, t_end, dt), t_start
        if (t_start is None) or (t_end is None) or (dt is None):
            times, t0, dt = self.times, self.t_start, self.dt
        else:
            times, t0 = jnp.arange(t_start, t_end, dt), t_start

        xjac0, vjac0 = initialize_jacobi_xv(elements, masses, t0)

        # note that the function for integration requires jit to avoid precision loss
        if symplectic:
            t, xcm, vcm, acm, de_frac = integrate_orbits_symplectic(xjac0, vjac0, masses, times, dt, nitr_kepler)
        else:
            raise NotImplementedError  # scaffolding: the Hermite4 branch (integrate_orbits_hermite) is cut

        tcarr = []
        for pidx in range(1, len(masses)):
            tc = find_transit_times_single(t, xcm, vcm, acm, pidx, masses, nitr=nitr_transit)
            tcarr.append(tc)
        if flatten:
            tcarr = np.hstack(tcarr)

        return tcarr, de_frac


jttv = JaxTTV(0.0, 400.0, 0.5)  # scaffolding
masses = jnp.array([1.0, 3e-5, 3e-5])  # scaffolding
rng = np.random.default_rng(0)  # scaffolding
calls = 0  # scaffolding
for draw in range(4):  # scaffolding: model transit times for four posterior draws
    elements = jnp.array([[10.0, 0.3], [20.0, 1.1]]) + 0.01 * rng.normal(size=(2, 2))
    tcarr, de_frac = jttv.get_ttvs_nodata(elements, masses)
    calls += 1  # scaffolding
_report({"jit(integrate_orbits_symplectic)"}, calls)  # scaffolding
