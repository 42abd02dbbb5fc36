# source: https://github.com/PyAutoLabs/PyAutoLens/issues/498
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: after the fix a traced redshift is detected and the galaxies are taken in input order without sorting, so the jitted likelihood traces once.
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


from typing import List

import numpy as np
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


class Galaxy:  # scaffolding: autogalaxy.Galaxy, only the redshift matters here
    def __init__(self, redshift):  # scaffolding
        self.redshift = redshift  # scaffolding


class ag:  # scaffolding: the `ag` namespace used in the type hints
    Galaxy = Galaxy  # scaffolding


def _redshift_is_traced(redshift) -> bool:
    """Return True if ``redshift`` is a JAX traced scalar (docstring shortened)."""
    if isinstance(redshift, (int, float)):
        return False
    if isinstance(redshift, np.ndarray) and redshift.shape == ():
        return False
    try:
        float(redshift)
    except Exception:
        return True
    return False


def _any_traced(galaxies: List[ag.Galaxy]) -> bool:
    return any(_redshift_is_traced(g.redshift) for g in galaxies)


def plane_redshifts_from(galaxies: List[ag.Galaxy]) -> List[float]:
    """Returns a list of plane redshifts from a list of galaxies (docstring shortened)."""

    if not _any_traced(galaxies):
        galaxies_ascending_redshift = sorted(galaxies, key=lambda galaxy: galaxy.redshift)

        # Coerce to float to avoid issues with other float types not being hashable.
        plane_redshifts = [float(galaxy.redshift) for galaxy in galaxies_ascending_redshift]

        return list(dict.fromkeys(plane_redshifts))

    plane_redshifts: List = []
    seen_concrete: set = set()
    for galaxy in galaxies:
        z = galaxy.redshift
        if _redshift_is_traced(z):
            plane_redshifts.append(z)
        else:
            zf = float(z)
            if zf not in seen_concrete:
                seen_concrete.add(zf)
                plane_redshifts.append(zf)

    return plane_redshifts


@jax.jit  # scaffolding: a jitted likelihood with a free subhalo redshift (issue's scenario B)
def plane_redshift_array(subhalo_redshift):  # scaffolding
    galaxies = [Galaxy(redshift=0.5), Galaxy(redshift=subhalo_redshift), Galaxy(redshift=1.0)]  # scaffolding
    return jnp.stack([jnp.asarray(z) for z in plane_redshifts_from(galaxies=galaxies)])  # scaffolding


try:  # scaffolding
    for z in (0.3, 0.5, 0.7):  # scaffolding
        plane_redshift_array(jnp.asarray(z))  # scaffolding
    _report({"jit(plane_redshift_array)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
