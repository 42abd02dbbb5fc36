# source: https://github.com/dani2442/bifurcationjax/blob/8d0eec510925524e3bc6f55591232cc92fa0029d/bifurcationjax/continuation/Continuation.py
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: Within _continuation_loop() one corrector is created before the step loop and reused, so the static self and the static jitted f stay the same objects and _newton_step compiles once for all steps.

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


from abc import ABC, abstractmethod
from typing import Any, Callable, Optional
import jax
import jax.numpy as jnp
from functools import partial
from pydantic import BaseModel
import pydantic


class BifurcationProblem:
    def __init__(self, f: Callable, x0: jax.Array, p0: float, dx0: Optional[jax.Array] = None, dp0: Optional[float] = None):
        self.f = jax.jit(f)
        self.x0 = x0
        self.p0 = p0
        self.dx0 = dx0
        self.dp0 = dp0

        if dx0 is not None and dp0 is not None:
            self.dz0 = jnp.append(self.dx0, self.dp0)
        else:
            self.dz0 = None


class Corrector(ABC):
    def __init__(self, delta: float = 0.6, max_steps: int = 200, epsilon: float = 1e-6, *args, **kwargs):
        self.delta = delta
        self.max_steps = max_steps
        self.epsilon = epsilon

    @abstractmethod
    def _newton_step(self, z, zpred, f, delta, v, h):
        pass

    def __call__(self, zpred, z_prev, f, v, h):
        c = 0
        z0 = zpred
        if jnp.linalg.norm(f(z0[:-1], z0[-1]))<self.epsilon:
            return z0, True
        
        z1 = self._newton_step(z0, zpred, z_prev, f, self.delta, v, h)
        while jnp.linalg.norm(z1 - z0, ord=2)>self.epsilon:
            z0 = z1
            z1 = self._newton_step(z0, zpred, z_prev, f, self.delta, v, h)
            c+=1
            if c>self.max_steps:
                print("Newton did not converge")
                return z1, False
            
        return z1, True


class PALC(Corrector):
    @partial(jax.jit, static_argnums=(0,3))
    def _mixed_jacobian(self, z, v, f):
        x, p = z[:-1], z[-1]
        j = jax.jacobian(f, argnums=0)(x, p)
        pder = jax.jacobian(f, argnums=1)(x, p)
        Jmixed = jnp.column_stack([j, pder])

        last_row = v.reshape(-1, 1)
        Jfinal = jnp.concat([Jmixed, last_row.T])
        return Jfinal

    @partial(jax.jit, static_argnums=(0,4))
    def _newton_step(self, z, zpred, z_prev, f, delta, v, h):
        Jfinal = self._mixed_jacobian(z, v, f)
        x, p = z[:-1], z[-1]
        g = f(x, p)
        gz = jnp.append(g, jnp.inner(z - z_prev, v) - h)
        z = z - delta*jnp.linalg.inv(Jfinal) @ gz
        return z


class CorrectorParams(BaseModel):
    class Config:
        arbitrary_types_allowed = True
    method: str = 'PALC'
    delta: float = 0.3
    max_steps: int = 200
    epsilon: float = 1e-6
    k: int = 0
    theta: float = 0.5
    N: int = 3
    

    def init(self, **kwargs) -> Corrector:
        dicc = self.model_dump()
        dicc.update(kwargs)
        if dicc['method'] == 'PALC':  # (newton/natural branches cut)
            return PALC(**dicc)


def F(x, mu):  # scaffolding: tests/example1.py's problem (there also @jax.jit)
    return mu + x - jnp.pow(x, 3)/3


prob = BifurcationProblem(F, jnp.array([-2.]), 0.)  # scaffolding
correction_params = CorrectorParams(method='PALC', epsilon=1e-3)  # scaffolding: as in tests/example1.py
dsmax = 0.1  # scaffolding: par.dsmax
z_prev = jnp.array([-2., 0.0])  # scaffolding: p0.z
v = jnp.array([0., 1.])  # scaffolding: tangent direction

# _continuation_loop(): one corrector per loop, reused for every continuation step
corrector = correction_params.init()

n_steps = 0  # scaffolding
for i in range(4):  # scaffolding: range(par.max_steps) cut to 4
    zpred = z_prev + dsmax*v  # scaffolding: predictor(p0.z, par.dsmax, prob.f) cut
    z, success = corrector(zpred, z_prev, prob.f, v, dsmax)
    v = (z - z_prev)/jnp.linalg.norm(z - z_prev)  # scaffolding
    z_prev = z
    n_steps += 1  # scaffolding
_report({"jit(_newton_step)"}, n_steps)
