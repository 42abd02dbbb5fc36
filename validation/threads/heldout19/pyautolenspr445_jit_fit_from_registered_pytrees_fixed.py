# source: https://github.com/PyAutoLabs/PyAutoLens/pull/445
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the PR registers FitImaging and Tracer as pytrees (dataset kept in aux_data), so jax.jit(analysis.fit_from)(instance) returns a FitImaging with jax.Array leaves and compiles once for 2 instances.
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

x = jnp.linspace(-2.0, 2.0, 400)  # scaffolding: a 1D stand-in for the imaging grid
data = jnp.exp(-x ** 2 / 0.5)  # scaffolding
noise_map = 0.1 * jnp.ones_like(x)  # scaffolding


class Tracer:  # scaffolding: al.Tracer from a model instance
    def __init__(self, einstein_radius, intensity):
        self.einstein_radius = einstein_radius
        self.intensity = intensity

    def image(self, grid):
        return self.intensity * jnp.exp(-grid ** 2 / (2 * self.einstein_radius ** 2))


class FitImaging:  # scaffolding: al.FitImaging holding the tracer and derived quantities
    def __init__(self, dataset, tracer):
        self.dataset = dataset
        self.tracer = tracer
        self.model_data = tracer.image(x)
        self.log_likelihood = -0.5 * jnp.sum(((dataset - self.model_data) / noise_map) ** 2)


class AnalysisImaging:  # scaffolding: al.AnalysisImaging(dataset=..., use_jax=True)
    def __init__(self, dataset, use_jax=True):
        self.dataset = dataset
        self._use_jax = use_jax

    def fit_from(self, instance):
        return FitImaging(dataset=self.dataset, tracer=Tracer(*instance))


analysis = AnalysisImaging(dataset=data, use_jax=True)
instance = (jnp.array(0.6), jnp.array(1.0))  # scaffolding: an MGE/SIE model instance reduced to two parameters


def register_instance_pytree(cls, children, no_flatten=()):  # scaffolding: stands in for the PR's register_instance_pytree helper
    def flatten(obj):
        return tuple(getattr(obj, n) for n in children), tuple(getattr(obj, n) for n in no_flatten)

    def unflatten(aux, leaves):
        obj = object.__new__(cls)
        for n, v in zip(children, leaves):
            setattr(obj, n, v)
        for n, v in zip(no_flatten, aux):
            setattr(obj, n, v)
        return obj

    jax.tree_util.register_pytree_node(cls, flatten, unflatten)


register_instance_pytree(Tracer, ("einstein_radius", "intensity"))
register_instance_pytree(FitImaging, ("tracer", "model_data", "log_likelihood"), no_flatten=("dataset",))

fit_from_jit = jax.jit(analysis.fit_from)
for instance in [(jnp.array(0.6), jnp.array(1.0)), (jnp.array(0.7), jnp.array(0.9))]:  # scaffolding
    fit = fit_from_jit(instance)
_report({"jit(fit_from)"}, 2)  # scaffolding
