# source: https://github.com/pmelchior/scarlet2/commit/baf41673646c5ea987b46d46c366cff177f80eec
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: The commit's fix: a circular profile keeps ellipticity=None and the branch tests 'is None', a static property of the module's structure, so the jitted render traces without a concrete value (one compile per structure, 2 for 2 calls).

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
import equinox as eqx
import jax
import jax.numpy as jnp
import jax.scipy


class Box:  # scaffolding: scarlet2.bbox.Box reduced to shape/origin (hashable, as a static field)
    def __init__(self, shape, origin=None):
        self.shape = tuple(shape)
        self.origin = tuple(origin) if origin is not None else (0,) * len(shape)

    def __hash__(self):
        return hash((self.shape, self.origin))

    def __eq__(self, other):
        return isinstance(other, Box) and (self.shape, self.origin) == (other.shape, other.origin)


class Parameter(eqx.Module):  # scaffolding
    value: jnp.ndarray


class Module(eqx.Module):  # scaffolding: scarlet2.module.Module without its parameter bookkeeping
    def __post_init__(self):
        pass


# scarlet2/morphology.py (after the commit; SersicMorphology cut)
class Morphology(Module):
    bbox: Box = eqx.field(static=True, init=False)

    def normalize(self, x):
        return x / x.max()

    def center_bbox(self, center):
        if isinstance(center, Parameter):
            center_ = center.value
        else:
            center_ = center
        center_ = tuple(_.item() for _ in center_.astype(int))
        self.bbox.set_center(center_)


class ArrayMorphology(Morphology):
    data: jnp.array

    def __init__(self, data):
        self.data = data
        super().__post_init__()
        self.bbox = Box(self.data.shape)

    def __call__(self):
        return self.normalize(self.data)


class ProfileMorphology(Morphology):
    center: jnp.array
    size: float
    ellipticity: (None, jnp.array)

    def __init__(self, center, size, ellipticity=None, bbox=None):

        # define radial profile function
        self.center = center
        self.size = size
        self.ellipticity = ellipticity
        super().__post_init__()

        if bbox is None:
            max_size = jnp.max(self.size)
            # explicit call to int() to avoid bbox sizes being jax-traced
            size = 10 * int(jnp.ceil(max_size))
            if size % 2 == 0:
                size += 1
            center_int = jnp.floor(self.center)
            shape = (size, size)
            origin = (int(center_int[0]) - size // 2, int(center_int[1]) - size // 2)
            bbox = Box(shape, origin=origin)
        self.bbox = bbox

    def f(self, R2):
        raise NotImplementedError

    def __call__(self):

        _Y = jnp.arange(self.bbox.shape[-2], dtype=float) + self.bbox.origin[-2] - self.center[-2]
        _X = jnp.arange(self.bbox.shape[-1], dtype=float) + self.bbox.origin[-1] - self.center[-1]

        if self.ellipticity is None:
            R2 = _Y[:, None] ** 2 + _X[None, :] ** 2
        else:
            e1, e2 = self.ellipticity
            g_factor = 1 / (1. + jnp.sqrt(1. - (e1 ** 2 + e2 ** 2)))
            g1, g2 = self.ellipticity * g_factor
            __X = ((1 - g1) * _X[None, :] - g2 * _Y[:, None]) / jnp.sqrt(
                1 - (g1 ** 2 + g2 ** 2)
            )
            __Y = (-g2 * _X[None, :] + (1 + g1) * _Y[:, None]) / jnp.sqrt(
                1 - (g1 ** 2 + g2 ** 2)
            )
            R2 = __Y ** 2 + __X ** 2

        R2 /= self.size ** 2
        R2 = jnp.maximum(R2, 1e-3)  # prevents infs at R2 = 0
        morph = self.normalize(self.f(R2))
        return morph


class GaussianMorphology(ProfileMorphology):

    def __init__(self, center, size, ellipticity=None, bbox=None):
        super().__init__(center, size, ellipticity=ellipticity, bbox=bbox)

    def f(self, R2):
        return jnp.exp(-R2 / 2)

    def __call__(self):

        # faster circular 2D Gaussian: instead of N^2 evaluations, use outer product of 2 1D Gaussian evals
        if self.ellipticity is None:
            _Y = jnp.arange(self.bbox.shape[-2]) + self.bbox.origin[-2] - self.center[-2]
            _X = jnp.arange(self.bbox.shape[-1]) + self.bbox.origin[-1] - self.center[-1]

            # with pixel integration
            f = lambda x, s: 0.5 * (
                    1 - jax.scipy.special.erfc((0.5 - x) / jnp.sqrt(2) / s) +
                    1 - jax.scipy.special.erfc((0.5 + x) / jnp.sqrt(2) / s)
            )
            # # without pixel integration
            # f = lambda x, s: jnp.exp(-(x ** 2) / (2 * s ** 2)) / (jnp.sqrt(2 * jnp.pi) * s)

            return self.normalize(jnp.outer(f(_Y, self.size), f(_X, self.size)))

        else:
            return super().__call__()


# scaffolding: render the morphology inside a jitted function (as scarlet2 fits do, with the
# ellipticity a traced leaf of the module)
@eqx.filter_jit
def render(morph):
    return morph()


calls = 0
try:  # scaffolding
    for e in (None, jnp.array([0.1, 0.0])):
        morph = GaussianMorphology(jnp.array([15.0, 15.0]), 2.0, ellipticity=e)
        image = render(morph)
        calls += 1
    _report({"jit(render)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
