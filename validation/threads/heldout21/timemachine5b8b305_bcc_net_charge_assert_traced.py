# source: https://github.com/proteneer/timemachine/commit/5b8b305ea68d75bab8f4df7711ce484b779673f6
# expect: trace-time-error at line 62
# runtime: ERROR TracerBoolConversionError
# why: apply_bond_charge_corrections asserts on jnp.isclose of the corrected net charge, which is traced when the charge parameterisation runs under jax.jit, so the assert raises a tracer-to-bool conversion error.
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


from collections import Counter
import jax
import jax.numpy as jnp
import numpy as np


def apply_bond_charge_corrections(initial_charges, bond_idxs, deltas):
    """For an arbitrary collection of ordered bonds and associated increments `(a, b, delta)`,
    update `charges` by `charges[a] += delta`, `charges[b] -= delta`.

    Notes
    -----
    * preserves sum(initial_charges) for arbitrary values of bond_idxs or deltas
    * order within each row of bond_idxs is meaningful
        `(..., bond_idxs, deltas)`
        means the opposite of
        `(..., bond_idxs[:, ::-1], deltas)`
    * order within the first axis of bond_idxs, deltas is not meaningful
        `(..., bond_idxs[perm], deltas[perm])`
        means the same thing for any permutation `perm`
    """

    # apply bond charge corrections
    incremented = jnp.asarray(initial_charges).at[bond_idxs[:, 0]].add(+deltas)
    decremented = jnp.asarray(incremented).at[bond_idxs[:, 1]].add(-deltas)
    final_charges = decremented

    # make some safety assertions
    assert bond_idxs.shape[1] == 2
    assert len(deltas) == len(bond_idxs)

    net_charge = jnp.sum(initial_charges)
    final_net_charge = jnp.sum(final_charges)
    net_charge_is_unchanged = jnp.isclose(final_net_charge, net_charge, atol=1e-5)

    assert net_charge_is_unchanged

    # print some safety warnings
    directed_bonds = Counter([tuple(b) for b in bond_idxs])

    if max(directed_bonds.values()) > 1:
        duplicates = [bond for (bond, count) in directed_bonds.items() if count > 1]
        print(UserWarning(f"Duplicate directed bonds! {duplicates}"))

    return final_charges


# scaffolding: AM1BCCHandler.static_parameterize with the AM1 charges and the SMIRKS bond matches
# precomputed for a small molecule (OpenEye/RDKit are not used here)
am1_charges = np.array([-0.4, 0.1, 0.1, 0.1, 0.1, -0.6, 0.6])  # scaffolding
bond_idxs = np.array([[0, 1], [0, 2], [0, 3], [0, 4], [5, 6]])  # scaffolding
type_idxs = np.array([0, 0, 0, 0, 1])  # scaffolding


def static_parameterize(params):  # scaffolding: the body of AM1BCCHandler.static_parameterize
    deltas = params[type_idxs]
    q_params = apply_bond_charge_corrections(am1_charges, bond_idxs, deltas)
    return q_params


parameterize = jax.jit(static_parameterize)  # scaffolding: charges parameterised inside a jitted free-energy/fit function
try:  # scaffolding
    for scale in [0.0, 0.01, 0.02]:  # scaffolding
        parameterize(jnp.array([0.05, -0.1]) * (1 + scale)).block_until_ready()  # scaffolding
    _report({"jit(static_parameterize)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
