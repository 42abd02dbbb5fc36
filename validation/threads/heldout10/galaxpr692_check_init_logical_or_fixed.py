# source: https://github.com/GalacticDynamics/galax/pull/692
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The PR's fix: the predicate uses jnp.logical_or, so eqx.error_if receives a traced boolean and the potential can be created inside the jitted function, which compiles once.

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


class _Param(eqx.Module):  # scaffolding: galax parameters are callables of time
    value: jax.Array

    def __call__(self, t):
        return self.value


class LeeSutoTriaxialNFWPotential(eqx.Module):  # scaffolding: fields reduced to plain parameters
    m: _Param
    r_s: _Param
    a1: _Param
    a2: _Param
    a3: _Param

    def __check_init__(self) -> None:
        t = jnp.asarray(0.0)  # scaffolding: u.Quantity(0.0, "Myr")
        _ = eqx.error_if(
            t,
            jnp.logical_or(self.a1(t) < self.a2(t), self.a2(t) < self.a3(t)),
            f"a1 {self.a1(t)} >= a2 {self.a2(t)} >= a3 {self.a3(t)} is required",
        )

    def potential(self, q, t):  # scaffolding: simple triaxial NFW-like stand-in
        r = jnp.sqrt((q[0] / self.a1(t)) ** 2 + (q[1] / self.a2(t)) ** 2 + (q[2] / self.a3(t)) ** 2)
        return -self.m(t) * jnp.log1p(r / self.r_s(t)) / r


x = jnp.array([1.0, 0.0, 0.0])  # scaffolding


@jax.jit
def init_potential_evaluate(a1, a2, a3):
    inner_pot = LeeSutoTriaxialNFWPotential(
        m=_Param(jnp.asarray(1.0)), r_s=_Param(jnp.asarray(15.0)),
        a1=_Param(a1), a2=_Param(a2), a3=_Param(a3),
    )
    return inner_pot.potential(x, t=0)


init_potential_evaluate(jnp.asarray(1.0), jnp.asarray(0.9), jnp.asarray(0.8))
init_potential_evaluate(jnp.asarray(1.0), jnp.asarray(0.7), jnp.asarray(0.5))  # scaffolding: second call, same shapes
_report({"jit(init_potential_evaluate)"}, 2)  # scaffolding
