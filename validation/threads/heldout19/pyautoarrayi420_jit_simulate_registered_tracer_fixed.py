# source: https://github.com/PyAutoLabs/PyAutoArray/issues/420
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: with the tracer classes registered as pytrees first (the finding: the simulators must call register_tracer_classes / register_galaxies_pytree), the jitted simulate accepts the tracer and compiles once for 2 tracers of the same structure.
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
import numpy as np


class Sersic:  # scaffolding: a light profile with array parameters
    def __init__(self, centre, intensity, effective_radius):
        self.centre = jnp.asarray(centre)
        self.intensity = jnp.asarray(intensity)
        self.effective_radius = jnp.asarray(effective_radius)

    def image_2d_from(self, grid):
        r = jnp.sqrt(jnp.sum((grid - self.centre) ** 2, axis=-1))
        return self.intensity * jnp.exp(-r / self.effective_radius)


class Galaxy:  # scaffolding: al.Galaxy
    def __init__(self, redshift, light):
        self.redshift = redshift
        self.light = light


class Tracer:  # scaffolding: al.Tracer, a plain Python class (no pytree registration)
    def __init__(self, galaxies):
        self.galaxies = galaxies

    def image_2d_from(self, grid):
        return sum(g.light.image_2d_from(grid) for g in self.galaxies)


class SimulatorImaging:  # scaffolding: al.SimulatorImaging reduced to PSF blur + sky + exposure
    def __init__(self, exposure_time, psf, background_sky_level, use_jax=True):
        self.exposure_time = exposure_time
        self.psf = psf
        self.background_sky_level = background_sky_level

    def via_tracer_from(self, tracer, grid):
        image = tracer.image_2d_from(grid).reshape(50, 50)
        image = jax.scipy.signal.convolve2d(image, self.psf, mode="same")
        return (image + self.background_sky_level) * self.exposure_time


y, x = np.mgrid[-2.5:2.5:50j, -2.5:2.5:50j]  # scaffolding: 50x50 grid
grid = jnp.stack([y.ravel(), x.ravel()], axis=-1)  # scaffolding
psf = jnp.outer(jnp.exp(-jnp.linspace(-1, 1, 5) ** 2), jnp.exp(-jnp.linspace(-1, 1, 5) ** 2))  # scaffolding: Gaussian PSF
tracer = Tracer([Galaxy(0.5, Sersic((0.0, 0.0), 1.0, 0.8)), Galaxy(1.0, Sersic((0.1, 0.1), 0.3, 0.2))])  # scaffolding

def register_tracer_classes():  # scaffolding: stands in for autolens' pytree registration helper
    jax.tree_util.register_pytree_node(Sersic, lambda p: ((p.centre, p.intensity, p.effective_radius), None),
                                       lambda _, c: Sersic(*c))
    jax.tree_util.register_pytree_node(Galaxy, lambda g: ((g.light,), g.redshift), lambda z, c: Galaxy(z, c[0]))
    jax.tree_util.register_pytree_node(Tracer, lambda t: ((t.galaxies,), None), lambda _, c: Tracer(c[0]))


register_tracer_classes()

simulator = SimulatorImaging(
    exposure_time=300.0, psf=psf, background_sky_level=0.1, use_jax=True
)

@jax.jit
def simulate(tracer):
    return simulator.via_tracer_from(tracer=tracer, grid=grid)

simulate(tracer)
simulate(Tracer([Galaxy(0.5, Sersic((0.0, 0.1), 1.2, 0.7)), Galaxy(1.0, Sersic((0.2, 0.1), 0.3, 0.3))]))  # scaffolding: a second tracer
_report({"jit(simulate)"}, 2)  # scaffolding
