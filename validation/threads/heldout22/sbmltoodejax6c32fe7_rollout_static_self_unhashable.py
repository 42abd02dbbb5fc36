# source: https://github.com/flowersteam/sbmltoodejax/commit/6c32fe7abf3c88aff7e7d50968dd980babaa4f2e
# expect: unhashable-static at line 99
# runtime: ERROR ValueError
# why: The generated ModelRollout.__call__ is jitted with static_argnums=(0,), making the equinox module self a static argument; its ModelStep holds dict static fields, so hashing self fails with ValueError (and n_steps would be traced).
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
from functools import partial
from jax import jit, lax, vmap
from jax.experimental.ode import odeint
import jax.numpy as jnp

# scaffolding: the classes below are what sbmltoodejax's GenerateModel writes for a
# two-species model A -> B with rate k1 * A (no assignment rules), reformatted with spaces.


class RateofSpeciesChange(eqx.Module):
    stoichiometricMatrix = jnp.array([[-1.0], [1.0]], dtype=jnp.float32)

    @jit
    def __call__(self, y, t, w, c):
        rateRuleVector = jnp.array([0.0, 0.0], dtype=jnp.float32)

        reactionVelocities = self.calc_reaction_velocities(y, w, c, t)

        rateOfSpeciesChange = self.stoichiometricMatrix @ reactionVelocities + rateRuleVector

        return rateOfSpeciesChange

    def calc_reaction_velocities(self, y, w, c, t):
        reactionVelocities = jnp.array([c[0] * y[0]], dtype=jnp.float32)
        return reactionVelocities


class AssignmentRule(eqx.Module):

    @jit
    def __call__(self, y, w, c, t):
        return w


class ModelStep(eqx.Module):
    y_indexes: dict = eqx.static_field()
    w_indexes: dict = eqx.static_field()
    c_indexes: dict = eqx.static_field()
    ratefunc: RateofSpeciesChange
    atol: float = eqx.static_field()
    rtol: float = eqx.static_field()
    mxstep: int = eqx.static_field()
    assignmentfunc: AssignmentRule

    def __init__(self, y_indexes={'A': 0, 'B': 1}, w_indexes={}, c_indexes={'k1': 0}, atol=1e-06, rtol=1e-12, mxstep=5000000):

        self.y_indexes = y_indexes
        self.w_indexes = w_indexes
        self.c_indexes = c_indexes

        self.ratefunc = RateofSpeciesChange()
        self.rtol = rtol
        self.atol = atol
        self.mxstep = mxstep
        self.assignmentfunc = AssignmentRule()

    @jit
    def __call__(self, y, w, c, t, deltaT):
        y_new = odeint(self.ratefunc, y, jnp.array([t, t + deltaT]), w, c, atol=self.atol, rtol=self.rtol, mxstep=self.mxstep)[-1]
        t_new = t + deltaT
        w_new = self.assignmentfunc(y_new, w, c, t_new)
        return y_new, w_new, c, t_new


class ModelRollout(eqx.Module):
    deltaT: float = eqx.static_field()
    modelstepfunc: ModelStep

    def __init__(self, deltaT=0.1, atol=1e-06, rtol=1e-12, mxstep=5000000):

        self.deltaT = deltaT
        self.modelstepfunc = ModelStep(atol=atol, rtol=rtol, mxstep=mxstep)

    @partial(jit, static_argnums=(0,))
    def __call__(self, n_steps, y0=jnp.array([1.0, 0.0]), w0=jnp.array([]), c=jnp.array([0.5]), t0=0.0):

        @jit
        def f(carry, x):
            y, w, c, t = carry
            return self.modelstepfunc(y, w, c, t, self.deltaT), (y, w, t)
        (y, w, c, t), (ys, ws, ts) = lax.scan(f, (y0, w0, c, t0), jnp.arange(n_steps))
        ys = jnp.moveaxis(ys, 0, -1)
        ws = jnp.moveaxis(ws, 0, -1)
        return ys, ws, ts


model = ModelRollout()  # scaffolding
try:  # scaffolding
    for k in range(3):  # scaffolding: three simulations with different rate constants
        ys, ws, ts = model(20, c=jnp.array([0.5 + 0.1 * k]))
    _report({"jit(__call__)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
