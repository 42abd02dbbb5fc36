# source: https://github.com/GalacticDynamics/galax/commit/538207c2
# expect: bad-static-spec at line 63
# runtime: ERROR ValueError
# why: AbstractStreamDF.sample is decorated with jax.jit(static_argnames=("seed_num",)) but takes no seed_num parameter, so applying the decorator raises when the class body runs.

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
import abc
from functools import partial

import equinox as eqx
import jax
import jax.numpy as xp  # scaffolding: quaxed.array_api
import jax.random as jr  # scaffolding: quax.examples.prng


class Orbit(eqx.Module):  # scaffolding: galax Orbit stand-in
    w_: jax.Array
    t: jax.Array

    def w(self, units=None):
        return self.w_


class Potential(eqx.Module):  # scaffolding: a point-mass potential stand-in
    m: jax.Array
    units: dict = eqx.field(static=True, default_factory=lambda: {"length": "kpc", "speed": "kpc/Myr"})


try:  # scaffolding
    class AbstractStreamDF(eqx.Module, strict=True):  # type: ignore[call-arg, misc]
        """Abstract base class of Stream Distribution Functions."""

        lead: bool = eqx.field(default=True, static=True)
        trail: bool = eqx.field(default=True, static=True)

        def __post_init__(self) -> None:
            if not self.lead and not self.trail:
                msg = "You must generate either leading or trailing tails (or both!)"
                raise ValueError(msg)

        @partial(jax.jit, static_argnames=("seed_num",))
        def sample(
            self,
            rng,
            # <\ parts of gala's ``prog_orbit``
            pot,
            prog_orbit,
            # />
            /,
            prog_mass,
        ):
            # Progenitor positions and times. The orbit times are used as the
            # release times for the mock stream.
            prog_w = prog_orbit.w(units=pot.units)
            ts = prog_orbit.t

            # Scan over the release times to generate the stream particle initial
            # conditions at each release time.
            def scan_fn(carry, t):
                i = carry[0]
                rng, subrng = jr.split(carry[1], 2)
                out = self._sample(subrng, pot, prog_w[i], prog_mass, t)
                return (i + 1, rng, *out), out

            # TODO: use ``jax.vmap`` instead of ``jax.lax.scan`` for GPU usage
            init_carry = (0, rng, xp.zeros(3), xp.zeros(3), xp.zeros(3), xp.zeros(3))
            x_lead, x_trail, v_lead, v_trail = jax.lax.scan(scan_fn, init_carry, ts)[1]

            # scaffolding: MockStream/Quantity wrappers dropped
            return (x_lead, v_lead), (x_trail, v_trail)

        @abc.abstractmethod
        def _sample(self, rng, pot, w, prog_mass, t):
            """Generate stream particle initial conditions."""
            ...

    class FardalStreamDF(AbstractStreamDF, strict=True):  # scaffolding: simplified subclass
        def _sample(self, rng, pot, w, prog_mass, t):
            x, v = w[:3], w[3:]
            r_tidal = (prog_mass / pot.m) ** (1 / 3) * xp.linalg.norm(x)
            kick = jr.normal(rng, (3,)) * 1e-3
            return x * (1 - r_tidal / xp.linalg.norm(x)), x * (1 + r_tidal / xp.linalg.norm(x)), v + kick, v - kick

    df = FardalStreamDF()
    pot = Potential(m=xp.asarray(1e12))
    ts = xp.linspace(0.0, 100.0, 16)
    orbit = Orbit(w_=xp.tile(xp.asarray([8.0, 0.0, 0.0, 0.0, 0.2, 0.0]), (16, 1)), t=ts)
    calls = 0
    for seed in range(3):
        lead, trail = df.sample(jr.PRNGKey(seed), pot, orbit, prog_mass=xp.asarray(1e4))
        calls += 1
    _report({"jit(sample)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
