# source: https://github.com/climate-analytics-lab/jax-gcm/issues/735
# expect: stale-closure at line 77
# runtime: COMPILES 2 CALLS 3
# why: _run_from_state is jitted with self static, so the physics parameters are baked into the executable at the first trace; set_value edits them in place without changing self's hash, the second m.run hits the cache and returns T2 identical to T1 (max diff 0.0) while a model built with trvdi=2 differs by about 18 K: 2 compiles for 3 runs, one result stale.

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


import dataclasses
from functools import partial
from types import SimpleNamespace

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)  # scaffolding: stand-in for jcm's physics parameters
class VerticalDiffusionParams:  # scaffolding
    trvdi: jax.Array = dataclasses.field(default_factory=lambda: jnp.array(24.0))  # scaffolding

    def replace(self, **kw):  # scaffolding
        return dataclasses.replace(self, **kw)  # scaffolding


class Param:  # scaffolding: a mutable parameter holder (jcm uses nnx.Param)
    def __init__(self, value):  # scaffolding
        self._value = value  # scaffolding

    def get_value(self):  # scaffolding
        return self._value  # scaffolding

    def set_value(self, value):  # scaffolding
        self._value = value  # scaffolding


class Term:  # scaffolding
    def __init__(self, name, params):  # scaffolding
        self.name, self.params = name, Param(params)  # scaffolding

    def __call__(self, temperature):  # scaffolding: relax towards 250 K on timescale trvdi
        return (250.0 - temperature) / self.params.get_value().trvdi  # scaffolding


def speedy_physics():  # scaffolding
    return SimpleNamespace(terms=[Term("speedy_vertical_diffusion", VerticalDiffusionParams())])  # scaffolding


class Model:  # scaffolding: the shape of jcm.Model that matters here
    def __init__(self, coords, physics, time_step):  # scaffolding
        self.coords, self.physics, self.time_step = coords, physics, time_step  # scaffolding

    def run(self, save_interval, total_time):  # scaffolding
        n_steps = int(total_time * 24 * 60 / self.time_step)  # scaffolding
        temperature = self._run_from_state(jnp.full(self.coords, 280.0), n_steps)  # scaffolding
        return SimpleNamespace(dynamics=SimpleNamespace(temperature=temperature))  # scaffolding

    # Note: changing fields assumed static won't propagate.
    @partial(jax.jit, static_argnums=(0, 2))
    def _run_from_state(self, temperature, n_steps):  # scaffolding: body
        def step(t, _):  # scaffolding
            return t + self.time_step / 60.0 * sum(term(t) for term in self.physics.terms), None  # scaffolding
        return jax.lax.scan(step, temperature, None, length=n_steps)[0]  # scaffolding


coords = (8,)  # scaffolding

m = Model(coords=coords, physics=speedy_physics(), time_step=30.0)
T1 = m.run(save_interval=0.5, total_time=0.5).dynamics.temperature

term = next(t for t in m.physics.terms if t.name == "speedy_vertical_diffusion")
term.params.set_value(term.params.get_value().replace(trvdi=jnp.array(2.0)))

T2 = m.run(save_interval=0.5, total_time=0.5).dynamics.temperature
control = Model(coords=coords, physics=speedy_physics(), time_step=30.0)  # scaffolding: a model built with trvdi=2
control.physics.terms[0].params.set_value(VerticalDiffusionParams(trvdi=jnp.array(2.0)))  # scaffolding
T3 = control.run(save_interval=0.5, total_time=0.5).dynamics.temperature  # scaffolding
print(float(jnp.abs(T2 - T1).max()), float(jnp.abs(T3 - T1).max()))  # scaffolding: 0.0 (edit ignored) vs > 0
_report({"jit(_run_from_state)"}, 3)  # scaffolding: two runs of m, one of control
