# source: https://github.com/pulse2percept/pulse2percept/issues/551
# expect: stale-closure at line 110
# runtime: COMPILES 2 CALLS 2
# why: _predict_spatial_jax is jitted with self static and reads self.streak_model (the lambda) at trace time; rebuilding re-wraps it in jit 'to clear the cache', but the inner static-self jit keeps its trace, so a model rebuilt with a new lambda returns the old percept.

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
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import jit

has_jax = True


def cond_jit(fn, static_argnums=None):
    """ Conditional decorator for jax jit"""
    if has_jax:
        if static_argnums is None:
            return jit(fn)
        else:
            return jit(fn, static_argnums=static_argnums)
    else:
        return fn


class DefaultStreakModel:
    """scaffolding: a streak-length model whose output depends on lam (the repository's is richer)."""

    def __init__(self, lam):
        self.lam = lam

    def __call__(self, freq, amp, pdur):
        return jnp.ones_like(amp) * self.lam / 100.0


class BiphasicAxonMapSpatial:
    """The jax path of pulse2percept's BiphasicAxonMapSpatial (granley2021.py at the time of the
    issue); the constructor, the axon geometry and the bright/size models are scaffolding."""

    def __init__(self, rho=200.0, lam=400.0, engine='jax'):
        self.engine = engine
        self.rho = rho
        self.thresh_percept = 0.0
        self.bright_model = lambda freq, amp, pdur: amp
        self.size_model = lambda freq, amp, pdur: jnp.ones_like(amp)
        self.streak_model = DefaultStreakModel(lam)
        rng = np.random.default_rng(0)
        # (n_points, n_axon_segments, 3): x, y and the segment's axon sensitivity
        self.axon_contrib = rng.uniform(0.1, 1.0, size=(6, 5, 3)).astype(np.float32)

    def _build(self):
        if self.engine == 'jax':
            # Clear previously cached functions
            self._predict_spatial_jax = jit(self._predict_spatial_jax)
            self._predict_spatial_batched = jit(self._predict_spatial_batched)
            # Cache axon_contrib for fast access later
            self.axon_contrib = jax.device_put(
                jnp.array(self.axon_contrib), jax.devices()[0])

    def predict_one_point_jax(self, axon, eparams, x, y, rho):
        """ Predicts the brightness contribution from each axon segment for each pixel"""
        d2_el = (axon[:, 0, None] - x)**2 + (axon[:, 1, None] - y)**2
        intensities = eparams[:, 0] * jnp.exp(-d2_el / (2. * rho**2 * eparams[:, 1])) * (
            axon[:, 2, None] ** (1./eparams[:, 2]))
        return jnp.sum(intensities, axis=1)

    @partial(cond_jit, static_argnums=[0])
    def biphasic_axon_map_jax(self, eparams, x, y, axon_segments, rho, thresh_percept):
        """ Predicts the spatial response of BiphasicAxonMapModel using Jax"""
        I = jnp.max(jax.vmap(self.predict_one_point_jax, in_axes=[0, None, None, None, None])(
            axon_segments,
            eparams, x, y,
            rho), axis=1)
        I = (I > thresh_percept) * I
        return I

    @partial(cond_jit, static_argnums=[0])
    def _predict_spatial_jax(self, elec_params, x, y):
        """A stripped version of _predict_spatial (docstring shortened)."""
        bright_effects = jnp.array(self.bright_model(elec_params[:, 0],
                                                     elec_params[:, 1],
                                                     elec_params[:, 2])).reshape((-1))
        size_effects = jnp.array(self.size_model(elec_params[:, 0],
                                                 elec_params[:, 1],
                                                 elec_params[:, 2])).reshape((-1))
        streak_effects = jnp.array(self.streak_model(elec_params[:, 0],
                                                     elec_params[:, 1],
                                                     elec_params[:, 2])).reshape((-1))
        eparams = jnp.stack(
            [bright_effects, size_effects, streak_effects], axis=1)

        resp = self.biphasic_axon_map_jax(eparams, x, y,
                                          self.axon_contrib,
                                          self.rho,
                                          self.thresh_percept)
        return resp

    @partial(cond_jit, static_argnums=[0])
    def _predict_spatial_batched(self, elec_params, x, y):
        return jax.vmap(lambda e: self._predict_spatial_jax(e, x, y))(elec_params)


# scaffolding: build, predict, rebuild with a different lambda, predict again
elec_params = jnp.array([[20.0, 1.0, 0.45], [20.0, 2.0, 0.45]])
x = jnp.array([0.2, 0.6])
y = jnp.array([0.3, 0.5])
model = BiphasicAxonMapSpatial(lam=400.0)
model._build()
before = model._predict_spatial_jax(elec_params, x, y)
model.streak_model = DefaultStreakModel(lam=50.0)
model._build()
after = model._predict_spatial_jax(elec_params, x, y)
print("percept unchanged after rebuilding with a new lambda:", bool(jnp.allclose(before, after)))
_report({"jit(_predict_spatial_jax)"}, 2)
