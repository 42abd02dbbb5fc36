# source: https://github.com/pmelchior/scarlet2/commit/fdfc60677f48187a9ea4564ce04ce906d7b68cbb
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The renderer is an eqx static field holding a ChannelRenderer whose channel_map is a slice (unhashable on Python 3.11), yet the filter_jit-ed loss over the same Observation compiles once for 3 calls and raises nothing.
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

import equinox as eqx
import jax
import jax.numpy as jnp

Module = eqx.Module  # scaffolding: scarlet2.module.Module is an eqx.Module


class Box(eqx.Module):  # scaffolding: scarlet2.bbox.Box (shape only)
    shape: tuple = eqx.field(static=True)


class Frame(eqx.Module):  # scaffolding: scarlet2.frame.Frame
    bbox: Box
    psf: object = None
    wcs: object = None
    channels: list = eqx.field(static=True, default=None)


class Renderer(eqx.Module):
    def __call__(self, model, key=None):  # key is needed to chain renderers with eqx.nn.Sequential
        """What to run when Renderer is called"""
        raise NotImplementedError


class NoRenderer(Renderer):
    def __call__(self, model, key=None):
        """Just return the model as is"""
        return model


class ChannelRenderer(Renderer):
    channel_map: (None, list, slice, jnp.array) = None

    def __init__(self, model_frame, obs_frame):
        if obs_frame.channels == model_frame.channels:
            channel_map = None
        else:
            try:
                channel_map = [list(model_frame.channels).index(c) for c in list(obs_frame.channels)]
            except ValueError as err:
                msg = "Cannot match channels between model and observation.\n"
                msg += f"Got {model_frame.channels} and {obs_frame.channels}."
                raise ValueError(msg) from err

            min_channel = min(channel_map)
            max_channel = max(channel_map)
            if max_channel + 1 - min_channel == len(channel_map):
                channel_map = slice(min_channel, max_channel + 1)
        self.channel_map = channel_map

    def __call__(self, model, key=None):
        if self.channel_map is None:
            return model
        if isinstance(self.channel_map, (slice, list)):
            return model[self.channel_map, :, :]
        # not yet used by any renderer: full matrix mapping between model and observation channels
        return jnp.dot(self.channel_map, model)


class Observation(Module):
    data: jnp.ndarray
    weights: jnp.ndarray
    frame: Frame
    renderer: (Renderer, eqx.nn.Sequential) = eqx.field(static=True)

    def __init__(self, data, weights, psf=None, wcs=None, channels=None, renderer=None):
        self.data = data
        self.weights = weights
        if channels is None:
            channels = list(range(data.shape[0]))
        self.frame = Frame(Box(data.shape), psf, wcs, channels)
        if renderer is None:
            renderer = NoRenderer()
        self.renderer = renderer

    def render(self, model):
        return self.renderer(model)

    def log_likelihood(self, model):
        return self._log_likelihood(model, self.data)

    def _log_likelihood(self, model, data):
        # rendered model
        model_ = self.render(model)

        n = jnp.prod(jnp.asarray(data.shape)) - jnp.sum(self.weights == 0)
        log_norm = n / 2 * jnp.log(2 * jnp.pi)
        log_like = -jnp.sum(self.weights * (model_ - data) ** 2) / 2
        return log_like - log_norm

    def match(self, frame, renderer=None):
        # choose the renderer
        if renderer is None:
            renderers = []
            # note the order of renderers!
            # 1) collapse channels that are not needed
            if self.frame.channels != frame.channels:
                renderers.append(ChannelRenderer(frame, self.frame))
            # scaffolding: the spatial renderers (AdjustToFrame, Convolution, Resampling) are cut

            if len(renderers) == 0:
                renderer = NoRenderer()
            elif len(renderers) == 1:
                renderer = renderers[0]
            else:
                renderer = eqx.nn.Sequential(renderers)
        else:
            assert isinstance(renderer, (Renderer, eqx.nn.Sequential))
        object.__setattr__(self, "renderer", renderer)  # scaffolding: scarlet2 sets it the same way
        return self


model_frame = Frame(Box((5, 16, 16)), channels=["u", "g", "r", "i", "z"])  # scaffolding
data = jnp.ones((3, 16, 16))  # scaffolding: observed g, r, i
obs = Observation(data, jnp.ones_like(data), channels=["g", "r", "i"]).match(model_frame)  # scaffolding


@eqx.filter_jit  # scaffolding: the fit's jitted loss over observations
def loss(model, obs):
    return -obs.log_likelihood(model)


try:  # scaffolding
    for step in range(3):  # scaffolding
        value = loss(jnp.full((5, 16, 16), 1.0 + step), obs)
    _report({"jit(loss)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
