# source: https://github.com/ami-iit/jaxsim/commit/5dc21eee74ab97ef353cc9e025802f7b098fb23e
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The commit makes contact_params a regular (non-static) pytree field, so K, D, mu, p, q are traced leaves and the sweep reuses one compiled step.

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
import dataclasses
import functools  # scaffolding

import jax
import jax.numpy as jnp
import numpy as np


class HashedNumpyArray:  # from jaxsim/utils/wrappers.py (only the helper used here)
    @staticmethod
    def hash_of_array(
        array, precision: float | None = 1e-9
    ) -> int:
        """
        Calculate the hash of a NumPy array.
        """

        array = np.array(array).flatten()

        array = np.where(array == np.nan, hash(np.nan), array)
        array = np.where(array == np.inf, hash(np.inf), array)
        array = np.where(array == -np.inf, hash(-np.inf), array)

        if precision is not None:

            integer1 = (array * precision).astype(int)
            integer2 = (array - integer1 / precision).astype(int)

            decimal_array = ((array - integer1 * 1e9 - integer2) / precision).astype(
                int
            )

            array = np.hstack([integer1, integer2, decimal_array]).astype(int)

        return hash(tuple(array.tolist()))


# scaffolding: register_dataclass stands in for jax_dataclasses.pytree_dataclass
@functools.partial(jax.tree_util.register_dataclass, data_fields=["K", "D", "mu", "p", "q"], meta_fields=[])
@dataclasses.dataclass(eq=False)
class SoftContactsParams:  # from jaxsim/rbda/contacts/soft.py
    """Parameters of the soft contacts model."""

    K: jax.Array = dataclasses.field(
        default_factory=lambda: jnp.array(1e6, dtype=float)
    )

    D: jax.Array = dataclasses.field(
        default_factory=lambda: jnp.array(2000, dtype=float)
    )

    mu: jax.Array = dataclasses.field(
        default_factory=lambda: jnp.array(0.5, dtype=float)
    )

    p: jax.Array = dataclasses.field(
        default_factory=lambda: jnp.array(0.5, dtype=float)
    )

    q: jax.Array = dataclasses.field(
        default_factory=lambda: jnp.array(0.5, dtype=float)
    )

    def __hash__(self) -> int:

        return hash(
            (
                HashedNumpyArray.hash_of_array(self.K),
                HashedNumpyArray.hash_of_array(self.D),
                HashedNumpyArray.hash_of_array(self.mu),
                HashedNumpyArray.hash_of_array(self.p),
                HashedNumpyArray.hash_of_array(self.q),
            )
        )

    def __eq__(self, other) -> bool:

        if not isinstance(other, SoftContactsParams):
            return False

        return hash(self) == hash(other)

    @classmethod
    def build(
        cls,
        *,
        K=1e6,
        D=2_000,
        mu=0.5,
        p=0.5,
        q=0.5,
        **kwargs,
    ):
        return SoftContactsParams(
            K=jnp.array(K, dtype=float),
            D=jnp.array(D, dtype=float),
            mu=jnp.array(mu, dtype=float),
            p=jnp.array(p, dtype=float),
            q=jnp.array(q, dtype=float),
        )


# scaffolding: register_dataclass stands in for jax_dataclasses.pytree_dataclass; the meta_fields are the Static[...] fields
@functools.partial(
    jax.tree_util.register_dataclass,
    data_fields=["time_step", "contact_params"],
    meta_fields=["model_name", "gravity"],
)
@dataclasses.dataclass(eq=False)
class JaxSimModel:
    """
    The JaxSim model defining the kinematics and dynamics of a robot.
    """

    model_name: str  # Static[str]

    time_step: float = dataclasses.field(
        default=0.001,
    )

    gravity: float = -9.80665  # Static[float]

    contact_params: SoftContactsParams = dataclasses.field(  # jaxsim.rbda.contacts.ContactsParams (no longer Static)
        default=None, repr=False
    )


@jax.jit
def step(model, z, zdot):  # scaffolding: a falling point with a Hunt/Crossley-like soft contact
    params = model.contact_params
    δ = jnp.maximum(-z, 0.0)
    f = params.K * δ ** (1 + params.p) + params.D * δ ** params.q * jnp.maximum(-zdot, 0.0)
    zddot = model.gravity + f
    zdot = zdot + model.time_step * zddot
    return z + model.time_step * zdot, zdot


# scaffolding: domain randomisation of the contact stiffness, one model per episode
stiffnesses = [1e5, 2e5, 5e5, 1e6]
for K in stiffnesses:
    model = JaxSimModel(model_name="point", contact_params=SoftContactsParams.build(K=K))
    z, zdot = jnp.array(0.01), jnp.array(-1.0)
    z, zdot = step(model, z, zdot)
_report({"jit(step)"}, len(stiffnesses))
